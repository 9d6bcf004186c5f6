import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { AdminService } from '../src/admin/admin.service';
import { TaxonomyService } from '../src/taxonomy/taxonomy.service';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * Two API processes (two apps), as behind the container stack's proxy. With REDIS_URL a change made through one
 * reaches the other's in-memory caches (pub/sub) and they share the rate-limit budgets; without it each keeps its
 * own, which is right only for one process.
 */
const setups: [string, (prefix: string) => Record<string, string>, boolean][] = [['in process', () => ({}), false]];
if (process.env.TEST_REDIS_URL) {
  const url = process.env.TEST_REDIS_URL;
  setups.push(['in Redis', (prefix) => ({ REDIS_URL: url, REDIS_PREFIX: prefix }), true]);
}

/** Reads until `check` holds, for at most a second: how long another process may take to hear of a change. */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 1000;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(setups)('caches and rate limits %s, seen by two API processes (e2e)', (_name, envFor, shared) => {
  let a: TestApp;
  let b: TestApp;
  const prefix = `test-${randomUUID().slice(0, 8)}:`;

  beforeAll(async () => {
    const env = envFor(prefix);
    [a, b] = await Promise.all([createTestApp(env), createTestApp(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  const categoryIds = async (t: TestApp) =>
    ((await request(t.http).get('/api/categories').expect(200)).body.data as { id: string }[]).map((c) => c.id);

  it(`${shared ? 'drops' : 'keeps'} a cached list in one process when another one changes it`, async () => {
    await categoryIds(a); // cached by A
    await a.db.query(`INSERT INTO categories (id, name) VALUES ('quiet-entry', 'Quiet Entry')`);
    expect(await categoryIds(a)).not.toContain('quiet-entry'); // still A's cached copy

    // What POST /api/categories runs on B. (Called directly: Passport keeps one JWT strategy per Node
    // process, so a token cannot be checked by two apps living in the same test process.)
    await b.app.get(TaxonomyService).create('categories', 'Loud Entry');

    // B's create reaches A's cache through Redis (within a second); without Redis, A keeps its copy for the
    // entry's lifetime.
    if (shared) expect(await eventually(() => categoryIds(a), (ids) => ids.includes('quiet-entry'))).toContain('quiet-entry');
    else expect(await categoryIds(a)).not.toContain('quiet-entry');
  });

  it(`${shared ? 'empties' : 'leaves'} another process's caches on an admin's clear-cache`, async () => {
    await categoryIds(a);
    await a.db.query(`INSERT INTO categories (id, name) VALUES ('after-clear', 'After Clear')`);
    await b.app.get(AdminService).clearCache(); // what POST /api/admin/clear-cache runs on B
    if (shared) expect(await eventually(() => categoryIds(a), (ids) => ids.includes('after-clear'))).toContain('after-clear');
    else expect(await categoryIds(a)).not.toContain('after-clear');
  });

  // Registered only where Redis is (no skipped test elsewhere).
  if (shared) it('keeps its caches in memory, none in Redis: clear-cache is a message, counters and rate limits stay', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL!);
    const others = [`${prefix}counters:probe`, `${prefix}ratelimit:probe`, `${prefix}probe`, `other-${prefix}probe`, `no-colon-${randomUUID()}`];
    try {
      await Promise.all(others.map((key) => redis.set(key, '1', 'EX', 60)));
      await categoryIds(a);
      expect(await redis.keys(`${prefix}cache*`)).toEqual([]);
      await b.app.get(AdminService).clearCache();
      expect(await redis.exists(...others)).toBe(others.length);
    } finally {
      await redis.del(...others);
      await redis.quit();
    }
});
});

describe.each(setups)('login rate limit %s, seen by two API processes (e2e)', (_name, envFor, shared) => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const env = { ...envFor(`test-${randomUUID().slice(0, 8)}:`), RATE_LIMIT_AUTH: '3' };
    [a, b] = await Promise.all([createTestApp(env), createTestApp(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it(`${shared ? 'shares' : 'splits'} one address's budget across processes`, async () => {
    const attempt = (t: TestApp) => request(t.http).post('/api/auth/login').send({ email: 'nobody@example.com', password: 'wrong password' });
    expect((await attempt(a)).status).toBe(401);
    expect((await attempt(a)).status).toBe(401);
    expect((await attempt(b)).status).toBe(401);
    const fourth = await attempt(b);
    if (shared) {
      expect(fourth.status).toBe(429);
      expect(fourth.body).toEqual({ error: 'Too many requests, please try again later', statusCode: 429 });
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    } else {
      expect(fourth.status).toBe(401);
    }
  });
});
