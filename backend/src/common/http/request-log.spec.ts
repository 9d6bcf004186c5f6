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

  it("never takes the client's X-Request-Id for its own, whatever it looks like", async () => {
    const app = appWith(60_000);
    for (const sent of ['nginx-4f2a.9_b', 'a b\u00e9<script>', 'x'.repeat(65)]) {
      const res = await request(app).get('/ok').set('X-Request-Id', sent).expect(200);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
    }
  });

  it('logs an answer of 500 and up as an error, and a slow one as a warning, with the path but never the query', async () => {
    const failing = await request(appWith(60_000)).get('/boom?q=private+words').expect(500);
    await vi.waitFor(() => expect(error).toHaveBeenCalledTimes(1));
    expect(error.mock.calls[0][0]).toBe(`GET /boom 500 ${/ (\d+) ms/.exec(error.mock.calls[0][0] as string)?.[1]} ms [${failing.headers['x-request-id']}]`);

    const slow = await request(appWith(0)).get('/ok?q=private+words').expect(200);
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(warn.mock.calls[0][0]).toMatch(new RegExp(`^slow: GET /ok 200 \\d+ ms \\[${slow.headers['x-request-id']}\\]$`));
    expect(JSON.stringify([...warn.mock.calls, ...error.mock.calls])).not.toContain('private');
  });

  it("logs the client's own id beside the server's, as a separate field cut to 64 safe characters", async () => {
    const res = await request(appWith(0)).get('/ok').set('X-Request-Id', `nginx-4f2a] [forged <b> ${'x'.repeat(100)}`).expect(200);
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    const line = warn.mock.calls[0][0] as string;
    expect(line).toContain(`[${res.headers['x-request-id']}] (client id nginx-4f2aforgedb${'x'.repeat(64 - 'nginx-4f2aforgedb'.length)})`);
    expect(line).not.toContain('[forged');
  });
});
