import request from 'supertest';
import { Lifecycle } from '../src/common/lifecycle/lifecycle';
import { createTestApp, type TestApp } from './helpers/test-app';

/**
 * Liveness and readiness (issue #33, point 3): `live` while the process runs, `ready` only while it can serve.
 * The drain on SIGTERM as a real process: test/process.e2e-spec.ts.
 */
describe('GET /api/health/live and /api/health/ready (e2e)', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    // Listening for real: fetch keeps connections alive, as a balancer does (supertest closes each one).
    await t.app.listen(0, '127.0.0.1');
    base = await t.app.getUrl();
  });
  afterAll(() => t?.close());

  it('answers live and ready while the database answers and migrations are done', async () => {
    expect((await request(t.http).get('/api/health/live').expect(200)).body).toEqual({ status: 'live' });
    const ready = await request(t.http).get('/api/health/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ready' });
    expect((await fetch(`${base}/api/videos`)).headers.get('connection')).toBe('keep-alive');
  });

  it('is not ready once draining begins, yet still live and still answering, each answer closing its connection', async () => {
    t.app.get(Lifecycle).beginDrain();
    const ready = await request(t.http).get('/api/health/ready').expect(503);
    expect(ready.body).toEqual({ error: 'Not ready: this process is shutting down', errorCode: 'NOT_READY', statusCode: 503 });
    expect(ready.headers['retry-after']).toBeDefined();
    expect((await request(t.http).get('/api/health/live').expect(200)).body).toEqual({ status: 'live' });
    const listing = await fetch(`${base}/api/videos`);
    expect([listing.status, listing.headers.get('connection')]).toEqual([200, 'close']);
  });
});

describe('readiness without a database (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('is not ready once the database is gone, and still live', async () => {
    await t.db.destroy();
    const ready = await request(t.http).get('/api/health/ready').expect(503);
    expect(ready.body).toEqual({ error: 'Not ready: the database does not answer', errorCode: 'NOT_READY', statusCode: 503 });
    await request(t.http).get('/api/health/live').expect(200);
  });
});
