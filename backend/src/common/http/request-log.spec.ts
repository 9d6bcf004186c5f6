import { Logger } from '@nestjs/common';
import express from 'express';
import request from 'supertest';
import { requestLog } from './request-log';

describe('requestLog', () => {
  const appWith = (slowMs: number) => {
    const app = express();
    app.use(requestLog(slowMs));
    app.get('/ok', (_req, res) => void res.json({ ok: true }));
    app.get('/boom', (_req, res) => void res.status(500).json({ error: 'Internal server error' }));
    return app;
  };
  let warn: ReturnType<typeof vi.spyOn>;
  let error: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    warn = vi.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    error = vi.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('gives every request its own id, answered in X-Request-Id, and logs nothing for a quick success', async () => {
    const app = appWith(60_000);
    const [a, b] = [await request(app).get('/ok?q=secret').expect(200), await request(app).get('/ok').expect(200)];
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  it("keeps the proxy's id when it looks like one, and replaces one that does not", async () => {
    const app = appWith(60_000);
    expect((await request(app).get('/ok').set('X-Request-Id', 'nginx-4f2a.9_b').expect(200)).headers['x-request-id']).toBe('nginx-4f2a.9_b');
    const forged = await request(app).get('/ok').set('X-Request-Id', 'a b\u00e9<script>').expect(200);
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    const long = await request(app).get('/ok').set('X-Request-Id', 'x'.repeat(65)).expect(200);
    expect(long.headers['x-request-id']).not.toBe('x'.repeat(65));
  });

  it('logs an answer of 500 and up as an error, and a slow one as a warning, with the path but never the query', async () => {
    const failing = await request(appWith(60_000)).get('/boom?q=private+words').set('X-Request-Id', 'req-1').expect(500);
    expect(failing.headers['x-request-id']).toBe('req-1');
    await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(1));
    expect(error.mock.calls[0][0]).toMatch(/^GET \/boom 500 \d+ ms \[req-1\]$/);

    await request(appWith(0)).get('/ok?q=private+words').set('X-Request-Id', 'req-2').expect(200);
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(warn.mock.calls[0][0]).toMatch(/^slow: GET \/ok 200 \d+ ms \[req-2\]$/);
    expect(JSON.stringify([...warn.mock.calls, ...error.mock.calls])).not.toContain('private');
  });
});
