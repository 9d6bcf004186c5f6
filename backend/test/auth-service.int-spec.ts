import { Logger } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import {
  PASSWORD_CONTAINS_DISPLAY_NAME,
  PASSWORD_CONTAINS_EMAIL_NAME,
  PASSWORD_LENGTH_MESSAGE,
  PASSWORD_TOO_COMMON,
} from '@hunktube/shared';
import type { DataSource, Repository } from 'typeorm';
import { ACCOUNT_LOCKED, AuthBudgets, LOGIN_FAILURES_PER_ACCOUNT, TAKEN_EMAILS_PER_NETWORK, TOO_MANY_TAKEN } from '../src/auth/auth-budgets';
import { AuthErrorCode, WeakPasswordError } from '../src/auth/auth-errors';
import { ADMIN_ACCOUNT, AuthService, INVALID_LOGIN, WRONG_PASSWORD } from '../src/auth/auth.service';
import { JWT_ALGORITHM } from '../src/auth/jwt.strategy';
import { hashPassword } from '../src/auth/passwords';
import { User } from '../src/auth/user.entity';
import type { AuthUser } from '../src/common/decorators/auth.decorators';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  OverBudgetError,
  UnauthenticatedError,
} from '../src/common/errors/domain-errors';
import { loadConfig } from '../src/config/app-config';
import { createTestDatabase } from './helpers/test-app';

/**
 * AuthService built by hand on the real database (PGlite and, with TEST_DATABASE_URL, the server), with its real
 * budgets (in process) and JWT signer: accounts, sessions, the password rule, deletion and the admin's account.
 * Each argon2 hash takes about 0.2 s, so accounts that need no new hash are written with one made up front.
 */
const PASSWORD = 'correct horse battery';

describe('AuthService (integration)', () => {
  let db: DataSource;
  let close: () => Promise<void>;
  let users: Repository<User>;
  let jwt: JwtService;
  let budgets: AuthBudgets;
  let auth: AuthService;
  /** PASSWORD's hash, made once. */
  let passwordHash: string;
  let counter = 0;

  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-test-data-dir', RATE_LIMIT_AUTH: '10' });
  const newEmail = (name = 'member') => `${name}${++counter}@example.com`;

  /** An account written straight to the database with PASSWORD (no hashing), as the guards would hand it over. */
  async function account(fields: { roleId?: 'member' | 'admin' | null; displayName?: string } = {}): Promise<AuthUser> {
    const email = newEmail();
    const [row] = await db.query<{ id: string }[]>(
      'INSERT INTO users (email, password_hash, display_name, role_id) VALUES ($1, $2, $3, $4) RETURNING id',
      [email, passwordHash, fields.displayName ?? `Member ${counter}`, fields.roleId === undefined ? 'member' : fields.roleId],
    );
    return { id: row.id, email, displayName: fields.displayName ?? `Member ${counter}`, roleId: fields.roleId === undefined ? 'member' : fields.roleId, historyPaused: false };
  }

  const sessionIds = async (userId: string) =>
    (await db.query<{ id: string }[]>('SELECT id FROM sessions WHERE user_id = $1 ORDER BY created_at', [userId])).map((row) => row.id);
  const sidOf = (token: string) => (jwt.decode(token) as { sid: string }).sid;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    ({ db, close } = await createTestDatabase());
    users = db.getRepository(User);
    jwt = new JwtService({
      secret: config.jwtSecret,
      signOptions: { algorithm: JWT_ALGORITHM, expiresIn: config.jwtTtlSeconds },
      verifyOptions: { algorithms: [JWT_ALGORITHM] },
    });
    budgets = new AuthBudgets(null, config);
    auth = new AuthService(users, jwt, config, budgets);
    passwordHash = await hashPassword(PASSWORD);
  });
  afterAll(() => close?.());

  describe('register', () => {
    it('creates an account with no role yet, its email in lower case, and answers a session whose token names it', async () => {
      const email = newEmail('New.Member');
      const session = await auth.register({ email, password: PASSWORD, displayName: 'Sam' });
      expect(session).toEqual({
        accessToken: expect.any(String),
        user: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), email: email.toLowerCase(), user_metadata: { display_name: 'Sam', role_id: null } },
      });
      const payload = await jwt.verifyAsync<{ sub: string; sid: string; exp: number; iat: number }>(session.accessToken);
      expect(payload.sub).toBe(session.user.id);
      expect(payload.exp - payload.iat).toBe(config.jwtTtlSeconds);
      expect(await sessionIds(session.user.id)).toEqual([payload.sid]);
    });

    it.each([
      ['a common password', 'password123', WeakPasswordError, PASSWORD_TOO_COMMON],
      ["one holding the e-mail address's name", 'big-bear-77-x!', WeakPasswordError, PASSWORD_CONTAINS_EMAIL_NAME],
      ['one holding the display name', 'my Hairy Otter pass', WeakPasswordError, PASSWORD_CONTAINS_DISPLAY_NAME],
      ['a password too short', 'short1', InvalidInputError, PASSWORD_LENGTH_MESSAGE],
    ])('refuses %s, writing nothing', async (_case, password, kind, message) => {
      const email = `big.bear+tube${++counter}@example.com`;
      const error = await auth.register({ email, password, displayName: 'Hairy Otter' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(kind);
      expect(error).toMatchObject({ message, code: kind === WeakPasswordError ? AuthErrorCode.WeakPassword : undefined });
      expect(await db.query('SELECT 1 FROM users WHERE email = $1', [email])).toEqual([]);
    });

    it("refuses an email that is taken whatever its case, and counts it against the network's budget", async () => {
      const taken = await account();
      const network = '203.0.113.7';
      for (let i = 1; i < TAKEN_EMAILS_PER_NETWORK; i++) await budgets.emailTaken(network);
      const error = await auth.register({ email: taken.email.toUpperCase(), password: PASSWORD, displayName: 'Sam' }, network).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as Error).message).toBe('An account with this email already exists');
      // That was the network's last one: even a new address is refused now, before any work.
      const refused = await auth.register({ email: newEmail(), password: PASSWORD, displayName: 'Sam' }, network).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(OverBudgetError);
      expect(refused).toMatchObject({ message: TOO_MANY_TAKEN, retryAfterSeconds: expect.any(Number) });
      // Another network is not held back by it (the password rule answers first, no hash is made).
      await expect(auth.register({ email: newEmail(), password: 'short', displayName: 'Sam' }, '198.51.100.1')).rejects.toThrow(PASSWORD_LENGTH_MESSAGE);
    });
  });

  describe('login', () => {
    it('answers a new session for the right password, whatever the email case, dropping the expired ones', async () => {
      const member = await account();
      await db.query(
        `INSERT INTO sessions (id, user_id, expires_at) VALUES (gen_random_uuid(), $1, now() - interval '1 second')`,
        [member.id],
      );
      const session = await auth.login({ email: member.email.toUpperCase(), password: PASSWORD });
      expect(session.user).toEqual({ id: member.id, email: member.email, user_metadata: { display_name: member.displayName, role_id: 'member' } });
      expect(await sessionIds(member.id)).toEqual([sidOf(session.accessToken)]);
    });

    it('refuses a wrong password and an unknown email with the same UnauthenticatedError', async () => {
      const member = await account();
      for (const dto of [{ email: member.email, password: 'not the password' }, { email: 'nobody@example.com', password: PASSWORD }]) {
        const error = await auth.login(dto).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(UnauthenticatedError);
        expect((error as Error).message).toBe(INVALID_LOGIN);
      }
      expect(await sessionIds(member.id)).toEqual([]);
    });

    it("refuses even the right password once the account's failed sign-ins are used up", async () => {
      const member = await account();
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) await budgets.reserveAttempt(member.email);
      const error = await auth.login({ email: member.email, password: PASSWORD }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OverBudgetError);
      expect(error).toMatchObject({ message: ACCOUNT_LOCKED });
    });

    it("starts the account's count of failed sign-ins over on a right password", async () => {
      const member = await account();
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT - 1; i++) await budgets.reserveAttempt(member.email);
      await auth.login({ email: member.email, password: PASSWORD });
      // Had the count stayed at 10, the next one would be refused.
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) await budgets.reserveAttempt(member.email);
    });
  });

  describe('sessions', () => {
    async function openSession(member: AuthUser, expiresIn = '1 hour'): Promise<string> {
      const [row] = await db.query<{ id: string }[]>(
        `INSERT INTO sessions (id, user_id, expires_at) VALUES (gen_random_uuid(), $1, now() + $2::interval) RETURNING id`,
        [member.id, expiresIn],
      );
      return row.id;
    }

    it('names the member of a live session, with the session; none for an ended, expired or mismatched one', async () => {
      const member = await account();
      const other = await account();
      const sid = await openSession(member);
      expect(await auth.findSessionUser(member.id, sid)).toEqual({ ...member, sessionId: sid });
      expect(await auth.findSessionUser(other.id, sid)).toBeNull();
      expect(await auth.findSessionUser(member.id, await openSession(member, '-1 second'))).toBeNull();
      expect(await auth.findSessionUser('not-a-uuid', sid)).toBeNull();
      expect(await auth.findSessionUser(member.id, 'not-a-uuid')).toBeNull();
      await auth.endSession(sid);
      expect(await auth.findSessionUser(member.id, sid)).toBeNull();
    });

    it("ends one session only: the account's others go on", async () => {
      const member = await account();
      const [a, b] = [await openSession(member), await openSession(member)];
      await auth.endSession(a);
      expect(await sessionIds(member.id)).toEqual([b]);
      // Any text is accepted and ends nothing.
      await auth.endSession('not-a-uuid');
      expect(await sessionIds(member.id)).toEqual([b]);
    });

    it('reads the user of a token: null for one of another key, without an expiry, or whose session ended', async () => {
      const member = await account();
      const sid = await openSession(member);
      expect(await auth.userOfToken(jwt.sign({ sub: member.id, sid }))).toEqual({ ...member, sessionId: sid });
      const otherKey = new JwtService({ secret: 'another secret', signOptions: { algorithm: JWT_ALGORITHM } });
      expect(await auth.userOfToken(otherKey.sign({ sub: member.id, sid }))).toBeNull();
      const noExpiry = new JwtService({ secret: config.jwtSecret, signOptions: { algorithm: JWT_ALGORITHM } });
      expect(await auth.userOfToken(noExpiry.sign({ sub: member.id, sid }))).toBeNull();
      expect(await auth.userOfToken('garbage')).toBeNull();
      await auth.endSession(sid);
      expect(await auth.userOfToken(jwt.sign({ sub: member.id, sid }))).toBeNull();
    });

    /** An AuthService whose database can be made unreachable (its queries refused as by a server that is down). */
    function withOutage() {
      const down = { on: false };
      const manager = new Proxy(users.manager, {
        get: (target, key, receiver) =>
          key === 'query' && down.on
            ? () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))
            : Reflect.get(target, key, receiver),
      });
      const repository = new Proxy(users, { get: (target, key, receiver) => (key === 'manager' ? manager : Reflect.get(target, key, receiver)) });
      return { service: new AuthService(repository, jwt, config, budgets), down };
    }

    it('recalls a session it identified while the database is down, but not one ended or a member changed since', async () => {
      const { service, down } = withOutage();
      const [member, renamed, loggedOut] = [await account(), await account(), await account()];
      const sids = [await openSession(member), await openSession(renamed), await openSession(loggedOut)];
      for (const [i, who] of [member, renamed, loggedOut].entries()) await service.findSessionUser(who.id, sids[i]);
      await service.updateProfile(renamed.id, 'New Name');
      await service.endSession(sids[2]);

      down.on = true;
      expect(await service.findSessionUser(member.id, sids[0])).toEqual({ ...member, sessionId: sids[0] });
      await expect(service.findSessionUser(renamed.id, sids[1])).rejects.toThrow('ECONNREFUSED');
      await expect(service.findSessionUser(loggedOut.id, sids[2])).rejects.toThrow('ECONNREFUSED');
      // Another member's session, under this member's id, is not recalled.
      await expect(service.findSessionUser(member.id, sids[1])).rejects.toThrow('ECONNREFUSED');
    });
  });

  describe('profile and history', () => {
    it('makes a new account a member when it finishes its profile, and keeps an admin an admin', async () => {
      const fresh = await account({ roleId: null });
      expect(await auth.updateProfile(fresh.id, 'Finished')).toEqual({
        id: fresh.id,
        email: fresh.email,
        user_metadata: { display_name: 'Finished', role_id: 'member' },
      });
      const admin = await account({ roleId: 'admin' });
      expect((await auth.updateProfile(admin.id, 'Boss')).user_metadata).toEqual({ display_name: 'Boss', role_id: 'admin' });
    });

    it("pauses and resumes the member's history", async () => {
      const member = await account();
      const [{ id: sid }] = await db.query<{ id: string }[]>(
        `INSERT INTO sessions (id, user_id, expires_at) VALUES (gen_random_uuid(), $1, now() + interval '1 hour') RETURNING id`,
        [member.id],
      );
      await auth.setHistoryPaused(member.id, true);
      expect((await auth.findSessionUser(member.id, sid))?.historyPaused).toBe(true);
      await auth.setHistoryPaused(member.id, false);
      expect((await auth.findSessionUser(member.id, sid))?.historyPaused).toBe(false);
    });
  });

  it("exports the account's own data: no hash, no session ids, live sessions newest first", async () => {
    const member = await account();
    await db.query(
      `INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES
         (gen_random_uuid(), $1, '2026-01-01T10:00:00Z', now() + interval '1 day'),
         (gen_random_uuid(), $1, '2026-01-02T10:00:00Z', now() + interval '2 days'),
         (gen_random_uuid(), $1, '2026-01-03T10:00:00Z', now() - interval '1 second')`,
      [member.id],
    );
    const exported = await auth.exportAccount(member.id);
    expect(exported).toEqual({
      id: member.id,
      email: member.email,
      display_name: member.displayName,
      role: 'member',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      history_paused: false,
      sessions: [
        { started_at: '2026-01-02T10:00:00.000Z', expires_at: expect.any(String) },
        { started_at: '2026-01-01T10:00:00.000Z', expires_at: expect.any(String) },
      ],
    });
    expect(JSON.stringify(exported)).not.toContain(passwordHash);
  });

  it('counts the accounts created on each of the last days, today included', async () => {
    const [{ today }] = await db.query<{ today: string }[]>(`SELECT to_char(current_date, 'YYYY-MM-DD') AS today`);
    const [{ n }] = await db.query<{ n: number }[]>('SELECT count(*)::int AS n FROM users WHERE created_at >= current_date');
    await account();
    const days = await auth.signupsPerDay(7);
    expect(days.size).toBe(7);
    expect(days.get(today)).toBe(Number(n) + 1);
  });

  describe('deleteAccount', () => {
    it('refuses an admin\'s account with ADMIN_ACCOUNT, before any password check', async () => {
      const admin = await account({ roleId: 'admin' });
      const error = await auth.deleteAccount(admin, PASSWORD).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ message: ADMIN_ACCOUNT, code: AuthErrorCode.AdminAccount });
      expect(await db.query('SELECT 1 FROM users WHERE id = $1', [admin.id])).toHaveLength(1);
    });

    it('refuses a wrong password with WRONG_PASSWORD, deleting nothing, and counts it as a failed sign-in', async () => {
      const member = await account();
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT - 1; i++) await budgets.reserveAttempt(member.email);
      const error = await auth.deleteAccount(member, 'not the password').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({ message: WRONG_PASSWORD, code: AuthErrorCode.WrongPassword });
      expect(await db.query('SELECT 1 FROM users WHERE id = $1', [member.id])).toHaveLength(1);
      // That was the tenth: the right password waits now.
      await expect(auth.deleteAccount(member, PASSWORD)).rejects.toThrow(ACCOUNT_LOCKED);
    });

    it('deletes the account and its sessions for the right password', async () => {
      const member = await account();
      const [{ id: sid }] = await db.query<{ id: string }[]>(
        `INSERT INTO sessions (id, user_id, expires_at) VALUES (gen_random_uuid(), $1, now() + interval '1 hour') RETURNING id`,
        [member.id],
      );
      await auth.deleteAccount({ ...member, sessionId: sid }, PASSWORD);
      expect(await db.query('SELECT 1 FROM users WHERE id = $1', [member.id])).toEqual([]);
      expect(await sessionIds(member.id)).toEqual([]);
      expect(await auth.findSessionUser(member.id, sid)).toBeNull();
    });
  });

  describe('ensureAdmin', () => {
    it('creates the admin, its email trimmed and in lower case, named after the address', async () => {
      const admin = await auth.ensureAdmin('  Boss.Person@Example.com ', 'admin-password-1');
      expect(admin).toMatchObject({ email: 'boss.person@example.com', displayName: 'boss.person', roleId: 'admin' });
      const [row] = await db.query<{ role_id: string; display_name: string }[]>('SELECT role_id, display_name FROM users WHERE id = $1', [admin.id]);
      expect(row).toEqual({ role_id: 'admin', display_name: 'boss.person' });
    });

    it('answers a created admin without its password hash, as it answers a promoted one', async () => {
      const admin = await auth.ensureAdmin(newEmail('chief'), 'admin-password-2');
      expect(admin).not.toHaveProperty('passwordHash');
    });

    it('promotes an existing account; the same password keeps its sessions, a new one ends them', async () => {
      const member = await account();
      const [{ id: sid }] = await db.query<{ id: string }[]>(
        `INSERT INTO sessions (id, user_id, expires_at) VALUES (gen_random_uuid(), $1, now() + interval '1 hour') RETURNING id`,
        [member.id],
      );
      const promoted = await auth.ensureAdmin(member.email.toUpperCase(), PASSWORD);
      expect(promoted).toMatchObject({ id: member.id, email: member.email, displayName: member.displayName, roleId: 'admin' });
      expect(promoted).not.toHaveProperty('passwordHash');
      expect(await sessionIds(member.id)).toEqual([sid]);
      await auth.ensureAdmin(member.email, 'a brand new secret');
      expect(await sessionIds(member.id)).toEqual([]);
      await expect(auth.login({ email: member.email, password: 'a brand new secret' })).resolves.toMatchObject({ user: { user_metadata: { role_id: 'admin' } } });
    });

    it("refuses a password holding the existing account's display name, changing nothing", async () => {
      const member = await account({ displayName: 'Grizzly Adams' });
      const error = await auth.ensureAdmin(member.email, 'grizzly-adams-2026').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WeakPasswordError);
      expect((error as Error).message).toBe(PASSWORD_CONTAINS_DISPLAY_NAME);
      const [row] = await db.query<{ role_id: string }[]>('SELECT role_id FROM users WHERE id = $1', [member.id]);
      expect(row.role_id).toBe('member');
    });
  });
});
