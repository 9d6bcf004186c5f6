import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { expressClasses } from './express-classes';

describe('expressClasses', () => {
  let server: http.Server | undefined;
  let arrived: { req: object; res: object } | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(app: express.Express): Promise<string> {
    server = http.createServer(expressClasses(app), app);
    // What Node built, before Express takes it.
    server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      arrived = { req: Object.getPrototypeOf(req) as object, res: Object.getPrototypeOf(res) as object };
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("builds requests and answers that already carry Express's prototypes, so Express swaps none", async () => {
    const app = express();
    const seen: { requestKept: boolean; responseKept: boolean; app: boolean; isNodes: boolean }[] = [];
    app.get('/things/:id', (req, res) => {
      seen.push({
        requestKept: Object.getPrototypeOf(req) === arrived?.req && arrived?.req === app.request,
        responseKept: Object.getPrototypeOf(res) === arrived?.res && arrived?.res === app.response,
        app: req.app === app && res.app === app,
        isNodes: req instanceof http.IncomingMessage && res instanceof http.ServerResponse,
      });
      res.status(201).cookie('c', 'v').json({ id: req.params.id, q: req.query.q, host: req.get('host'), path: req.path, xhr: req.xhr });
    });
    const base = await serve(app);
    const answer = await fetch(`${base}/things/7?q=word`);
    expect(answer.status).toBe(201);
    expect(answer.headers.get('set-cookie')).toBe('c=v; Path=/');
    expect(await answer.json()).toEqual({ id: '7', q: 'word', host: new URL(base).host, path: '/things/7', xhr: false });
    expect(seen).toEqual([{ requestKept: true, responseKept: true, app: true, isNodes: true }]);
  });

  it("keeps the app's own settings that Express's request reads (trust proxy)", async () => {
    const app = express().set('trust proxy', true);
    app.get('/', (req, res) => res.json({ ip: req.ip, protocol: req.protocol }));
    const base = await serve(app);
    const answer = await fetch(base, { headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' } });
    expect(await answer.json()).toEqual({ ip: '203.0.113.9', protocol: 'https' });
  });
});
