import { getStorageToken } from '@nestjs/throttler';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { ACCOUNT_LOCKED, LOGIN_FAILURES_PER_ACCOUNT, TAKEN_EMAILS_PER_NETWORK, TOO_MANY_TAKEN } from '../src/auth/auth-budgets';
import { HASH_CONCURRENCY, HASH_QUEUE_MAX, HASHING_BUSY, hashingLoad, PASSWORD_HASH, setPasswordHashCost, TEST_PASSWORD_HASH } from '../src/auth/passwords';
import { TcpProxy } from './helpers/tcp-proxy';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app';

/**
 * What one client, or a crowd of them, can do to the sign-in routes: the per-account budget of failed sign-ins
 * (whatever the address), the per-network budget of registrations of taken addresses, IPv6 counted by /64, a
 * global budget, rate-limit keys without raw addresses, and password hashing that cannot starve file serving.
 * Clients are told apart by X-Forwarded-For from the loopback proxy (TRUST_PROXY=loopback).
 */
const PASSWORD = 'correct horse battery';
const from = (address: string) => ({ 'X-Forwarded-For': address });
/** In-process counts, and with TEST_REDIS_URL the same tests with the counts in Redis. */
const stores: [string, () => Record<string, string>][] = [['in-process counts', () => ({})]];
if (process.env.TEST_REDIS_URL) {
  // A prefix of each app's own: the budgets and limits of one describe must not count another's requests.
  const url = process.env.TEST_REDIS_URL;
  stores.push(['counts in Redis', () => ({ REDIS_URL: url, REDIS_PREFIX: `auth-abuse-${randomUUID().slice(0, 8)}:` })]);
}
const login = (t: TestApp, email: string, password: string, address: string) =>
  request(t.http).post('/api/auth/login').set(from(address)).send({ email, password });

describe.each(stores)('Auth budgets, %s (e2e)', (_name, store) => {
  let t: TestApp;

  beforeAll(async () => {
    // The budgets count only while the sign-in limits are on (RATE_LIMIT_AUTH > 0): on, and out of the way here.
    t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH: '1000', ...store() });
  });
  afterAll(() => t.close());

  it('locks an account after its failed sign-ins from many addresses, right password or not, and no other account', async () => {
    const victim = await registerUser(t.http, { password: PASSWORD });
    const other = await registerUser(t.http, { password: PASSWORD });
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
      await login(t, victim.email, 'wrong password', `198.51.100.${i + 1}`).expect(401);
    }
    for (const password of ['wrong password', PASSWORD]) {
      const res = await login(t, victim.email.toUpperCase(), password, '203.0.113.77').expect(429);
      expect(res.body).toEqual({ error: ACCOUNT_LOCKED, statusCode: 429 });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(60);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    await login(t, other.email, PASSWORD, '198.51.100.1').expect(200);
  });

  it('counts an unknown address the same way, so that the answer tells nothing', async () => {
    const email = 'nobody-here@example.com';
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) await login(t, email, 'guess', `192.0.2.${i + 1}`).expect(401);
    expect((await login(t, email, 'guess', '192.0.2.200').expect(429)).body.error).toBe(ACCOUNT_LOCKED);
  });

  it('verifies at most the budget of passwords when 40 wrong ones for one account arrive at once, from 40 networks', async () => {
    const victim = await registerUser(t.http, { password: PASSWORD });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login(t, victim.email, `wrong guess ${i}`, `198.18.${i}.1`)),
    );
    const statuses = answers.map((res) => res.status);
    // 401: the password was hashed and compared; 429: refused before any hashing.
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_FAILURES_PER_ACCOUNT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - LOGIN_FAILURES_PER_ACCOUNT);
    await login(t, victim.email, PASSWORD, '198.18.200.1').expect(429);
  });

  it('verifies at most the budget of passwords when 40 wrong ones for an account deletion arrive at once', async () => {
    const member = await registerUser(t.http, { password: PASSWORD });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        request(t.http).delete('/api/me/account').set('Authorization', `Bearer ${member.token}`).set(from(`198.19.${i}.1`)).send({ password: `wrong guess ${i}` })),
    );
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((s) => s === 403)).toHaveLength(LOGIN_FAILURES_PER_ACCOUNT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - LOGIN_FAILURES_PER_ACCOUNT);
    // The account is still there.
    await request(t.http).get('/api/auth/me').set('Authorization', `Bearer ${member.token}`).expect(200);
  });

  it('starts the count over after a successful sign-in', async () => {
    const user = await registerUser(t.http, { password: PASSWORD });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT - 1; i++) await login(t, user.email, 'typo', '198.51.100.9').expect(401);
      await login(t, user.email, PASSWORD, '198.51.100.9').expect(200);
    }
  });

  it('slows probing for accounts: registrations that find the address taken are budgeted per network, new ones are not', async () => {
    const taken = await registerUser(t.http);
    const body = (email: string) => ({ email, password: PASSWORD, displayName: 'Prober' });
    for (let i = 0; i < 8; i++) {
      await request(t.http).post('/api/auth/register').set(from('2001:db8:aa:1::5')).send(body(`fresh-${i}-${Date.now()}@example.com`)).expect(201);
    }
    for (let i = 0; i < TAKEN_EMAILS_PER_NETWORK; i++) {
      // Any address in the same /64 is the same network.
      await request(t.http).post('/api/auth/register').set(from(`2001:db8:aa:1::${i + 100}`)).send(body(taken.email)).expect(409);
    }
    const refused = await request(t.http).post('/api/auth/register').set(from('2001:db8:aa:1:ffff::1')).send(body('brand-new@example.com')).expect(429);
    expect(refused.body).toEqual({ error: TOO_MANY_TAKEN, statusCode: 429 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM users WHERE email = 'brand-new@example.com'`);
    expect(n).toBe(0);
    // Another /64 is another network.
    await request(t.http).post('/api/auth/register').set(from('2001:db8:aa:2::5')).send(body('brand-new@example.com')).expect(201);
  });
});

if (process.env.TEST_REDIS_URL) {
  describe('Auth budgets shared by two API processes through Redis (e2e)', () => {
    const shared = { TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH: '1000', REDIS_URL: process.env.TEST_REDIS_URL as string, REDIS_PREFIX: `auth-two-${randomUUID().slice(0, 8)}:` };
    let a: TestApp;
    let b: TestApp;

    beforeAll(async () => {
      a = await createTestApp(shared);
      b = await createTestApp(shared);
    });
    afterAll(async () => {
      await a.close();
      await b.close();
    });

    it("counts an account's failed sign-ins in one process against its budget in the other", async () => {
      const email = `shared-${randomUUID().slice(0, 8)}@example.com`;
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) await login(i % 2 ? a : b, email, 'guess', `192.0.2.${i + 1}`).expect(401);
      expect((await login(a, email, 'guess', '192.0.2.100').expect(429)).body.error).toBe(ACCOUNT_LOCKED);
      expect((await login(b, email, 'guess', '192.0.2.101').expect(429)).body.error).toBe(ACCOUNT_LOCKED);
    });
  });
}

// Registered only where Redis is: a real cut between the API and Redis.
if (process.env.TEST_REDIS_URL) {
  describe('Auth budgets while Redis is down (e2e)', () => {
    let t: TestApp;
    let proxy: TcpProxy;

    beforeAll(async () => {
      proxy = await TcpProxy.to(process.env.TEST_REDIS_URL as string);
      t = await createTestApp({
        TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH: '1000', REDIS_URL: proxy.url(process.env.TEST_REDIS_URL as string), REDIS_PREFIX: `auth-down-${randomUUID().slice(0, 8)}:`,
      });
    });
    afterAll(async () => {
      await proxy?.restore();
      await t?.close();
      await proxy?.close();
    });

    it('keeps counting failed sign-ins in the process, never a 500, and signs people in', async () => {
      const user = await registerUser(t.http, { password: PASSWORD });
      await proxy.cut();
      const email = `cut-${randomUUID().slice(0, 8)}@example.com`;
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) await login(t, email, 'guess', `192.0.2.${i + 1}`).expect(401);
      expect((await login(t, email, 'guess', '192.0.2.200').expect(429)).body.error).toBe(ACCOUNT_LOCKED);
      await login(t, user.email, PASSWORD, '192.0.2.201').expect(200);
      await proxy.restore();
    });
  });
}

describe('Auth budgets with the sign-in limits off (RATE_LIMIT_AUTH=0) (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH: '0' });
  });
  afterAll(() => t.close());

  it('counts nothing, as the per-network and global limits do not', async () => {
    const user = await registerUser(t.http, { password: PASSWORD });
    for (let i = 0; i <= LOGIN_FAILURES_PER_ACCOUNT; i++) await login(t, user.email, 'wrong password', '198.51.100.1').expect(401);
    await login(t, user.email, PASSWORD, '198.51.100.1').expect(200);
    const body = (email: string) => ({ email, password: PASSWORD, displayName: 'Tester' });
    for (let i = 0; i <= TAKEN_EMAILS_PER_NETWORK; i++) await request(t.http).post('/api/auth/register').set(from('198.51.100.1')).send(body(user.email)).expect(409);
    await request(t.http).post('/api/auth/register').set(from('198.51.100.1')).send(body(`fresh-${randomUUID().slice(0, 8)}@example.com`)).expect(201);
  });
});

describe.each(stores)('Auth rate limits by network, global budget and keys, %s (e2e)', (_name, store) => {
  let t: TestApp;
  let redis: Redis | null = null;

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback', RATE_LIMIT_AUTH: '3', RATE_LIMIT_AUTH_GLOBAL: '8', RATE_LIMIT_WRITE: '0', ...store() });
    if (t.config.redisUrl) redis = new Redis(t.config.redisUrl);
  });
  afterAll(async () => {
    await redis?.quit();
    await t.close();
  });

  it('counts an IPv6 client by its /64, and every address of the budget under a keyed hash, never as it is', async () => {
    for (let i = 1; i <= 3; i++) await login(t, `v6-${i}@example.com`, 'whatever1', `2001:db8:5:6::${i}`).expect(401);
    await login(t, 'v6-4@example.com', 'whatever1', '2001:db8:5:6:ffff:ffff:ffff:ffff').expect(429);
    await login(t, 'v6-5@example.com', 'whatever1', '2001:db8:5:7::1').expect(401);

    const keys: string[] = redis
      ? await redis.keys(`${t.config.redisPrefix}*`)
      : [...(t.app.get(getStorageToken()) as { storage: Map<string, unknown> }).storage.keys()];
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toMatch(/2001|db8|127\.0\.0\.1|::1/);
  });

  it('answers 429 once all addresses together pass RATE_LIMIT_AUTH_GLOBAL sign-ins a minute', async () => {
    // Four sign-ins were made above; four more from new addresses fill the global budget of eight.
    for (let i = 1; i <= 4; i++) await login(t, `g-${i}@example.com`, 'whatever1', `203.0.113.${i}`).expect(401);
    const res = await login(t, 'g-5@example.com', 'whatever1', '203.0.113.99').expect(429);
    expect(res.body).toEqual({ error: 'Too many requests, please try again later', statusCode: 429 });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('Password hashing under a flood of sign-ins (e2e)', () => {
  let t: TestApp;
  let media: string;

  beforeAll(async () => {
    // The line of hashes is what this tests: at argon2's production cost, as a real flood meets it, not the
    // suite's lowered one (test/helpers/setup.ts).
    setPasswordHashCost(PASSWORD_HASH);
    media = mkdtempSync(path.join(tmpdir(), 'hash-flood-'));
    mkdirSync(path.join(media, 'thumbs', 'flood'), { recursive: true });
    writeFileSync(path.join(media, 'thumbs', 'flood', 'poster.jpg'), Buffer.alloc(64 * 1024, 7));
    t = await createTestApp({ TRUST_PROXY: 'loopback', MEDIA_DIR: media });
  });
  afterAll(async () => {
    setPasswordHashCost(TEST_PASSWORD_HASH);
    await t.close();
    rmSync(media, { recursive: true, force: true });
  });

  it('hashes a few at a time, refuses past its line with 503 and Retry-After, and serves files meanwhile', async () => {
    const user = await registerUser(t.http, { password: PASSWORD });
    const bystander = await registerUser(t.http, { password: PASSWORD });
    const crowd = 48;
    let answered = 0;
    const logins = Array.from({ length: crowd }, (_, i) =>
      login(t, i % 2 ? user.email : `crowd-${i}@example.com`, 'not the password', `2001:db8:${i.toString(16)}::1`).then((res) => {
        answered++;
        return res;
      }),
    );
    // The most the server ever ran and kept waiting, sampled while the crowd is in.
    const most = { running: 0, waiting: 0 };
    const sampler = setInterval(() => {
      const load = hashingLoad();
      most.running = Math.max(most.running, load.running);
      most.waiting = Math.max(most.waiting, load.waiting);
    }, 1);
    // Wait until the server holds the crowd: hashes running and a full line waiting.
    while (hashingLoad().waiting < HASH_QUEUE_MAX) await new Promise((r) => setTimeout(r, 5));
    expect(hashingLoad().running).toBe(HASH_CONCURRENCY);

    // A file and a page are served while the line is still waiting: argon2 leaves threads for files. (With every
    // hash on the thread pool at once, a file read queued behind all of them, in libuv's FIFO order.)
    const file = await request(t.http).get('/thumbs/flood/poster.jpg').expect(200);
    expect(file.body.length).toBe(64 * 1024);
    await request(t.http).get('/api/health').expect(200);
    expect(hashingLoad().waiting).toBeGreaterThan(0);
    expect(answered).toBeLessThan(crowd);

    const answers = await Promise.all(logins);
    clearInterval(sampler);
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s !== 401 && s !== 503)).toEqual([]);
    // Never more than HASH_CONCURRENCY running and HASH_QUEUE_MAX waiting; the rest were told to come back.
    expect(most).toEqual({ running: HASH_CONCURRENCY, waiting: HASH_QUEUE_MAX });
    const busy = answers.filter((r) => r.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const res of busy) {
      expect(res.body).toEqual({ error: HASHING_BUSY, statusCode: 503 });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Once the crowd is gone, sign-ins work again (the attacked account itself is locked by its failures).
    await login(t, bystander.email, PASSWORD, '198.51.100.1').expect(200);
  });
});
