import request from 'supertest';
import {
  PASSWORD_CONTAINS_DISPLAY_NAME,
  PASSWORD_CONTAINS_EMAIL_NAME,
  PASSWORD_LENGTH_MESSAGE,
  PASSWORD_TOO_COMMON,
} from '@hunktube/shared';
import { bearer, createTestApp, registerUser, TestApp } from './helpers/test-app';
import { JwtService } from '@nestjs/jwt';
import { AdminBootstrapService } from '../src/auth/admin-bootstrap.service';
import { WeakPasswordError } from '../src/auth/auth-errors';
import { AuthService } from '../src/auth/auth.service';
import { hashPassword } from '../src/auth/passwords';
import { ConfigError } from '../src/config/app-config';

const PASSWORD = 'correct horse battery';

describe('Auth (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAIL: 'Boss@Example.com', ADMIN_PASSWORD: 'admin-password-1' });
  });
  afterAll(() => t.close());

  describe('POST /api/auth/register', () => {
    it('creates an account with no role yet, answers 201 with a token and sets the httpOnly cookie', async () => {
      const res = await request(t.http)
        .post('/api/auth/register')
        .send({ email: '  New.Member@Example.com ', password: PASSWORD, displayName: ' Sam ' })
        .expect(201);
      expect(res.body).toEqual({
        accessToken: expect.any(String),
        user: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: 'new.member@example.com', user_metadata: { display_name: 'Sam', role_id: null } },
      });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^access_token=[^;]+;/);
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
    });

    it('answers 409 for an email that is taken, whatever its case', async () => {
      await registerUser(t.http, { email: 'taken@example.com' });
      const res = await request(t.http)
        .post('/api/auth/register')
        .send({ email: 'TAKEN@example.com', password: PASSWORD, displayName: 'Other' })
        .expect(409);
      expect(res.body).toEqual({ error: 'An account with this email already exists', statusCode: 409 });
    });

    it.each([
      ['a missing email', { password: PASSWORD, displayName: 'Sam' }, /email/],
      ['a malformed email', { email: 'not-an-email', password: PASSWORD, displayName: 'Sam' }, /email must be a valid email address/],
      ['a 9-character password', { email: 'x1@example.com', password: 'k7#vq2!zw', displayName: 'Sam' }, /^password must be 10 to 128 characters long$/],
      ['a 129-character password', { email: 'x2@example.com', password: 'p'.repeat(129), displayName: 'Sam' }, /^password must be 10 to 128 characters long$/],
      ['a 1-character display name', { email: 'x3@example.com', password: PASSWORD, displayName: 'S' }, /displayName must be 2 to 40/],
      ['a 41-character display name', { email: 'x4@example.com', password: PASSWORD, displayName: 'S'.repeat(41) }, /displayName must be 2 to 40/],
      ['a number as password', { email: 'x5@example.com', password: 12345678, displayName: 'Sam' }, /password/],
      ['an extra field', { email: 'x6@example.com', password: PASSWORD, displayName: 'Sam', role_id: 'admin' }, /property role_id should not exist/],
    ])('answers 400 for %s and creates nothing', async (_case, body, message) => {
      const res = await request(t.http).post('/api/auth/register').send(body).expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(message), statusCode: 400 });
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM users WHERE email LIKE 'x_@example.com'`);
      expect(n).toBe(0);
    });

    describe('the password rule', () => {
      const usersWith = async (email: string) =>
        (await t.db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM users WHERE email = $1', [email]))[0].n;

      it.each([
        ['a common password', 'weak.1@example.com', 'Weakling', 'password123', PASSWORD_TOO_COMMON],
        ['a common password in another case, with punctuation', 'weak.2@example.com', 'Weakling', 'QwertyUiop!', PASSWORD_TOO_COMMON],
        ["one that contains the e-mail address's name", 'ramona.flowers@example.com', 'Rammy', 'I am Ramona.Flowers 2024', PASSWORD_CONTAINS_EMAIL_NAME],
        ['one that contains the display name, spaces or not', 'weak.3@example.com', 'Big Muscle Men', 'bigmusclemen forever', PASSWORD_CONTAINS_DISPLAY_NAME],
      ])('answers 400 WEAK_PASSWORD with the rule for %s, creating nothing', async (_case, email, displayName, password, message) => {
        const res = await request(t.http).post('/api/auth/register').send({ email, password, displayName }).expect(400);
        expect(res.body).toEqual({ error: message, errorCode: 'WEAK_PASSWORD', statusCode: 400 });
        expect(res.headers['set-cookie']).toBeUndefined();
        expect(await usersWith(email)).toBe(0);
      });

      it('takes a password of exactly 10 characters that breaks no rule', async () => {
        await request(t.http).post('/api/auth/register').send({ email: 'ten@example.com', password: 'k7#vq2!zwm', displayName: 'Tenner' }).expect(201);
        expect(await usersWith('ten@example.com')).toBe(1);
      });

      it('lets a member sign in with a password from before the rule (short, common, with their name)', async () => {
        const old = [
          { email: 'old.short@example.com', password: 'abc12345' },
          { email: 'old.common@example.com', password: 'password' },
          { email: 'oldtimer@example.com', password: 'oldtimer99' },
        ];
        for (const { email, password } of old) {
          await t.db.query(`INSERT INTO users (email, password_hash, display_name, role_id) VALUES ($1, $2, 'Old Timer', 'member')`, [
            email,
            await hashPassword(password),
          ]);
          const res = await request(t.http).post('/api/auth/login').send({ email, password }).expect(200);
          expect(res.body.user).toMatchObject({ email, user_metadata: { display_name: 'Old Timer', role_id: 'member' } });
        }
      });
    });

    it('answers 400 for a malformed JSON body', async () => {
      const res = await request(t.http).post('/api/auth/register').set('Content-Type', 'application/json').send('{"email":').expect(400);
      expect(res.body).toEqual({ error: expect.stringMatching(/JSON/), statusCode: 400 });
    });

    it('answers 413 for an oversized body', async () => {
      const res = await request(t.http)
        .post('/api/auth/register')
        .send({ email: 'big@example.com', password: PASSWORD, displayName: 'x'.repeat(300_000) })
        .expect(413);
      expect(res.body.statusCode).toBe(413);
    });
  });

  describe('POST /api/auth/login', () => {
    it('answers 200 with a session for the right password, whatever the email case', async () => {
      const user = await registerUser(t.http, { email: 'login.ok@example.com' });
      const res = await request(t.http).post('/api/auth/login').send({ email: 'Login.OK@example.com', password: PASSWORD }).expect(200);
      expect(res.body.user).toEqual({ id: user.id, email: 'login.ok@example.com', user_metadata: { display_name: expect.any(String), role_id: null } });
      expect(res.body.accessToken).toEqual(expect.any(String));
      expect(String(res.headers['set-cookie'])).toMatch(/access_token=/);
    });

    it('answers 401 with the same text for a wrong password and an unknown email', async () => {
      await registerUser(t.http, { email: 'login.bad@example.com' });
      const wrong = await request(t.http).post('/api/auth/login').send({ email: 'login.bad@example.com', password: 'wrong password' }).expect(401);
      const unknown = await request(t.http).post('/api/auth/login').send({ email: 'nobody@example.com', password: PASSWORD }).expect(401);
      expect(wrong.body).toEqual({ error: 'Invalid email or password', statusCode: 401 });
      expect(unknown.body).toEqual(wrong.body);
      expect(wrong.headers['set-cookie']).toBeUndefined();
    });

    it('answers 400 for wrong types and extra fields', async () => {
      await request(t.http).post('/api/auth/login').send({ email: ['a@b.c'], password: PASSWORD }).expect(400);
      await request(t.http).post('/api/auth/login').send({ email: 'a@b.c', password: PASSWORD, remember: true }).expect(400);
    });
  });

  describe('GET and PATCH /api/auth/me', () => {
    it('answers the user for a bearer token and for the cookie alone', async () => {
      const user = await registerUser(t.http);
      const viaHeader = await request(t.http).get('/api/auth/me').set(bearer(user)).expect(200);
      expect(viaHeader.body.user.id).toBe(user.id);
      const viaCookie = await request(t.http).get('/api/auth/me').set('Cookie', `access_token=${user.token}`).expect(200);
      expect(viaCookie.body.user.id).toBe(user.id);
    });

    it('answers 401 without a token, with a garbled one, one signed with another key or with alg none', async () => {
      const user = await registerUser(t.http);
      const forged = new JwtService({ secret: 'another-secret-that-is-long-enough-000' }).sign({ sub: user.id });
      const [header, payload] = user.token.split('.');
      const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
      expect(header).toBeTruthy();
      for (const auth of [undefined, 'Bearer garbage', `Bearer ${forged}`, `Bearer ${none}`]) {
        const req = request(t.http).get('/api/auth/me');
        if (auth) req.set('Authorization', auth);
        const res = await req.expect(401);
        expect(res.body).toEqual({ error: expect.any(String), statusCode: 401 });
      }
    });

    it('answers 401 once the account is gone', async () => {
      const user = await registerUser(t.http);
      await t.db.query('DELETE FROM users WHERE id = $1', [user.id]);
      await request(t.http).get('/api/auth/me').set(bearer(user)).expect(401);
    });

    it('completes the profile: sets the display name and makes the account a member', async () => {
      const user = await registerUser(t.http);
      const res = await request(t.http).patch('/api/auth/me').set(bearer(user)).send({ displayName: 'Finished Profile' }).expect(200);
      expect(res.body).toEqual({ user: { id: user.id, email: user.email, user_metadata: { display_name: 'Finished Profile', role_id: 'member' } } });
    });

    it('keeps an admin an admin when the profile changes', async () => {
      const admin = await request(t.http).post('/api/auth/login').send({ email: 'boss@example.com', password: 'admin-password-1' }).expect(200);
      const res = await request(t.http).patch('/api/auth/me').set(bearer({ token: admin.body.accessToken })).send({ displayName: 'The Boss' }).expect(200);
      expect(res.body.user.user_metadata).toEqual({ display_name: 'The Boss', role_id: 'admin' });
    });

    it('answers 400 for a bad display name or extra fields and 401 without a token, changing nothing', async () => {
      const user = await registerUser(t.http, { displayName: 'Unchanged' });
      await request(t.http).patch('/api/auth/me').set(bearer(user)).send({ displayName: 'x' }).expect(400);
      await request(t.http).patch('/api/auth/me').set(bearer(user)).send({ displayName: 42 }).expect(400);
      await request(t.http).patch('/api/auth/me').set(bearer(user)).send({ displayName: 'Valid Name', role_id: 'admin' }).expect(400);
      await request(t.http).patch('/api/auth/me').send({ displayName: 'Valid Name' }).expect(401);
      const me = await request(t.http).get('/api/auth/me').set(bearer(user)).expect(200);
      expect(me.body.user.user_metadata).toEqual({ display_name: 'Unchanged', role_id: null });
    });
  });

  it('POST /api/auth/logout answers 204 and clears the cookie', async () => {
    const res = await request(t.http).post('/api/auth/logout').expect(204);
    expect(String(res.headers['set-cookie'])).toMatch(/access_token=;.*Expires=Thu, 01 Jan 1970/);
    expect(res.headers['clear-site-data']).toBe('"cache", "cookies"');
  });

  describe('sessions', () => {
    const login = async (email: string, password = PASSWORD) =>
      (await request(t.http).post('/api/auth/login').send({ email, password }).expect(200)).body.accessToken as string;

    it("ends the session logged out of: its token is refused after, the account's other sessions go on", async () => {
      const user = await registerUser(t.http);
      const phone = await login(user.email);
      await request(t.http).get('/api/auth/me').set(bearer(user)).expect(200);
      await request(t.http).post('/api/auth/logout').set(bearer(user)).expect(204);
      const refused = await request(t.http).get('/api/auth/me').set(bearer(user)).expect(401);
      expect(refused.body).toEqual({ error: 'Authentication required', statusCode: 401 });
      await request(t.http).get('/api/auth/me').set('Cookie', `access_token=${user.token}`).expect(401);
      await request(t.http).get('/api/me/bookmarks').set(bearer(user)).expect(401);
      // Logging out again with the ended token changes nothing and still answers 204.
      await request(t.http).post('/api/auth/logout').set(bearer(user)).expect(204);
      await request(t.http).get('/api/auth/me').set(bearer({ token: phone })).expect(200);
      // The cookie's logout ends the cookie's session.
      await request(t.http).post('/api/auth/logout').set('Cookie', `access_token=${phone}`).expect(204);
      await request(t.http).get('/api/auth/me').set(bearer({ token: phone })).expect(401);
      // Logging in again starts a new one.
      await request(t.http).get('/api/auth/me').set(bearer({ token: await login(user.email) })).expect(200);
    });

    it("ends every session of an account whose password an admin resets, and none when the password stays", async () => {
      const auth = t.app.get(AuthService);
      const user = await registerUser(t.http);
      const other = await login(user.email);
      await auth.ensureAdmin(user.email, PASSWORD);
      await request(t.http).get('/api/auth/me').set(bearer(user)).expect(200);
      await auth.ensureAdmin(user.email, 'a-new-password-for-them');
      for (const token of [user.token, other]) await request(t.http).get('/api/auth/me').set(bearer({ token })).expect(401);
      const again = await login(user.email, 'a-new-password-for-them');
      const me = await request(t.http).get('/api/auth/me').set(bearer({ token: again })).expect(200);
      expect(me.body.user.user_metadata.role_id).toBe('admin');
    });

    it('keeps one row per session, dropped with the account', async () => {
      const user = await registerUser(t.http);
      await login(user.email);
      const count = async () => (await t.db.query('SELECT count(*)::int AS n FROM sessions WHERE user_id = $1', [user.id]))[0].n as number;
      expect(await count()).toBe(2);
      await request(t.http).post('/api/auth/logout').set(bearer(user)).expect(204);
      expect(await count()).toBe(1);
      await t.db.query('DELETE FROM users WHERE id = $1', [user.id]);
      expect(await count()).toBe(0);
    });
  });

  describe('admin creation follows the password rule', () => {
    it.each([
      ['too short', 'new.boss@example.com', 'k7#vq2!zw', PASSWORD_LENGTH_MESSAGE],
      ['common', 'new.boss@example.com', 'Password123', PASSWORD_TOO_COMMON],
      ["containing the e-mail address's name", 'new.boss@example.com', 'new-boss-forever', PASSWORD_CONTAINS_EMAIL_NAME],
    ])('refuses a password %s, creating no account', async (_case, email, password, message) => {
      await expect(t.app.get(AuthService).ensureAdmin(email, password)).rejects.toThrow(message);
      expect((await t.db.query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [email]))[0].n).toBe(0);
    });

    it("refuses to promote an account with a password that contains its display name, changing nothing", async () => {
      const member = await registerUser(t.http, { displayName: 'Captain Hook' });
      const promote = t.app.get(AuthService).ensureAdmin(member.email, 'captain hook rules the seas');
      await expect(promote).rejects.toBeInstanceOf(WeakPasswordError);
      await expect(promote).rejects.toThrow(PASSWORD_CONTAINS_DISPLAY_NAME);
      const me = await request(t.http).get('/api/auth/me').set(bearer(member)).expect(200);
      expect(me.body.user.user_metadata.role_id).toBeNull();
      await request(t.http).post('/api/auth/login').send({ email: member.email, password: PASSWORD }).expect(200);
    });

    // A password weak for ADMIN_EMAIL alone stops the start earlier, in loadConfig (app-config.spec.ts).
    it('stops the start with a message naming ADMIN_PASSWORD when it holds the display name of the account it promotes', async () => {
      const member = await registerUser(t.http, { displayName: 'Mister Bigshot' });
      const bootstrap = new AdminBootstrapService(t.app.get(AuthService), { ...t.config, admin: { email: member.email, password: 'mister bigshot 4ever' } });
      const start = bootstrap.onApplicationBootstrap();
      await expect(start).rejects.toBeInstanceOf(ConfigError);
      await expect(start).rejects.toThrow(`ADMIN_PASSWORD: ${PASSWORD_CONTAINS_DISPLAY_NAME}`);
    });
  });

  describe('admin bootstrap from ADMIN_EMAIL and ADMIN_PASSWORD', () => {
    it('creates the admin at start-up', async () => {
      const res = await request(t.http).post('/api/auth/login').send({ email: 'boss@example.com', password: 'admin-password-1' }).expect(200);
      expect(res.body.user.user_metadata.role_id).toBe('admin');
    });

    it('is idempotent and promotes an existing account', async () => {
      const auth = t.app.get(AuthService);
      await auth.ensureAdmin('boss@example.com', 'admin-password-1');
      const member = await registerUser(t.http, { email: 'promote.me@example.com' });
      await auth.ensureAdmin('Promote.Me@example.com', 'new-admin-password');
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = 'boss@example.com'`);
      expect(n).toBe(1);
      // A new password ends the account's sessions (see "sessions"); the new one signs in as an admin.
      await request(t.http).get('/api/auth/me').set(bearer(member)).expect(401);
      const login = await request(t.http).post('/api/auth/login').send({ email: 'promote.me@example.com', password: 'new-admin-password' }).expect(200);
      const me = await request(t.http).get('/api/auth/me').set(bearer({ token: login.body.accessToken })).expect(200);
      expect(me.body.user.user_metadata.role_id).toBe('admin');
    });
  });
});

describe('Auth rate limits (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH: '3', RATE_LIMIT_WRITE: '0' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once an address passes RATE_LIMIT_AUTH logins and registrations a minute', async () => {
    for (let i = 0; i < 3; i++) {
      await request(t.http).post('/api/auth/login').send({ email: `nobody${i}@example.com`, password: 'whatever1' }).expect(401);
    }
    const res = await request(t.http).post('/api/auth/register').send({ email: 'late@example.com', password: PASSWORD, displayName: 'Late' }).expect(429);
    expect(res.body).toEqual({ error: 'Too many requests, please try again later', statusCode: 429 });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM users WHERE email = 'late@example.com'`);
    expect(n).toBe(0);
  });

  it('does not limit reads', async () => {
    for (let i = 0; i < 6; i++) await request(t.http).get('/api/site').expect(200);
  });
});
