import * as http from 'node:http';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Express } from 'express';

/**
 * Express gives each request and answer its methods by `Object.setPrototypeOf(req, app.request)` (and the same
 * for `res`) as it takes them. On V8 an object whose prototype was swapped, or whose prototype is such a chain of
 * `Object.create`d objects, keeps young objects alive past a young-generation collection: measured on this machine
 * (Node 20, one keep-alive client, 6,000 requests to a route answering 17 bytes), bare Express promoted 43.8 MB to
 * the old generation and spent 109 ms in 23 scavenges, against 0.5 MB and 17 ms for Node's own server. In the API,
 * every scavenge then took 6-15 ms instead of under one, and the request it fell on waited for it: the catalogue
 * bench's p99 (docs/catalogue-queries.md › "The tail of a request").
 *
 * Here Node's server builds requests and answers of two classes whose prototypes carry Express's methods and
 * properties, copied once, and Express is handed those prototypes as `app.request` and `app.response`, so its
 * `setPrototypeOf` finds the prototype already in place and changes nothing. The same route then promoted 2.2 MB
 * and spent 19 ms collecting; at 50 connections the API served 2.0-2.6 times the hot reads a second
 * (docs/benchmarks.md).
 */
export function expressClasses(app: Express): { IncomingMessage: typeof http.IncomingMessage; ServerResponse: typeof http.ServerResponse } {
  class ExpressRequest extends http.IncomingMessage {}
  class ExpressResponse extends http.ServerResponse {}
  copyChain(app.request, http.IncomingMessage.prototype, ExpressRequest.prototype);
  copyChain(app.response, http.ServerResponse.prototype, ExpressResponse.prototype);
  app.request = ExpressRequest.prototype as Express['request'];
  app.response = ExpressResponse.prototype as Express['response'];
  return { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse as unknown as typeof http.ServerResponse };
}

/** Every own property of `from` and of its prototypes down to `base` (not included), the nearest last, onto `to`. */
function copyChain(from: object, base: object, to: object): void {
  const chain: object[] = [];
  for (let p: object | null = from; p && p !== base; p = Object.getPrototypeOf(p) as object | null) chain.unshift(p);
  if (!chain.length || Object.getPrototypeOf(chain[0]) !== base) throw new Error('Express request or response does not extend Node\'s');
  for (const p of chain) Object.defineProperties(to, Object.getOwnPropertyDescriptors(p));
}

/** Nest's Express adapter, its HTTP server built with `expressClasses`. */
export class ExpressClassesAdapter extends ExpressAdapter {
  override initHttpServer(options: NestApplicationOptions): void {
    // HTTPS and Nest's connection tracking are left to Nest as it builds them; this API uses neither.
    if (options?.httpsOptions || options?.forceCloseConnections || options?.return503OnClosing) return super.initHttpServer(options);
    const app = this.getInstance<Express>();
    this.httpServer = http.createServer(expressClasses(app), app);
  }
}
