import { Global, Inject, Injectable, Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/** How long a scrape waits for one gauge's reading. */
const GAUGE_BUDGET_MS = 1000;

/** A gauge's reading at scrape time: one value, or one per label set. */
export type Reading = number | { labels: Record<string, string>; value: number }[];

/**
 * The process's metrics in Prometheus' text format (`GET /metrics`, issue #33 point 4; docs/operating.md ›
 * "Metrics"): prom-client's process and event-loop metrics, the HTTP requests by route template, and what each
 * module declares here (`gauge`, `counter`, `histogram`), as caches declare their change events: the metrics
 * depend on no module, every module on them. One registry per app, so that the test suite's many apps in one
 * process each have their own.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly aborted: Counter<'method' | 'route'>;

  constructor(@Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'metricsToken'>) {
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = this.histogram('http_request_duration_seconds', 'Time to answer an HTTP request, by method, route template and status', ['method', 'route', 'status'], [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
    this.aborted = this.counter('http_requests_aborted_total', 'Requests whose client went away before the answer was sent (a player cancelling a segment), by method and route template', ['method', 'route']);
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  histogram<L extends string>(name: string, help: string, labelNames: readonly L[], buckets?: number[]): Histogram<L> {
    return new Histogram({ name, help, labelNames, registers: [this.registry], ...(buckets ? { buckets } : {}) });
  }

  /**
   * A gauge read when scraped; a reading that throws (a dependency down) or takes longer than a second (a
   * database that does not answer) leaves the gauge without a value, and the scrape goes on.
   */
  gauge(name: string, help: string, read: () => Reading | Promise<Reading>, labelNames: string[] = []): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        // An unlabelled gauge would read 0 after a reset: no reading must show as no value, not as 0.
        if (labelNames.length === 0) this.remove();
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`${name}: no reading within ${GAUGE_BUDGET_MS} ms`)), GAUGE_BUDGET_MS);
        });
        try {
          const reading = await Promise.race([Promise.resolve().then(read), late]);
          if (typeof reading === 'number') this.set(reading);
          else for (const { labels, value } of reading) this.set(labels, value);
        } catch {
          // Said by the module's own health and logs; the scrape goes on.
        } finally {
          clearTimeout(timer);
        }
      },
    });
  }

  /** Whether `GET /metrics` is served at all: METRICS_TOKEN is set. */
  get enabled(): boolean {
    return this.config.metricsToken !== '';
  }

  /** Whether `authorization` is `Bearer <METRICS_TOKEN>` (compared in constant time). */
  authorized(authorization: string | undefined): boolean {
    const token = this.config.metricsToken;
    if (!token || !authorization?.startsWith('Bearer ')) return false;
    const given = Buffer.from(authorization.slice('Bearer '.length));
    const expected = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

@Global()
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}

/**
 * The route template a request is counted under: Nest's route (`/api/videos/:id`) when one answered it, else the
 * part of the site that did (`/s/*` media, `/thumbs/*` images, `/assets/*`, `page` for a rendered page,
 * `/api/*` for an API answer given before routing, such as a kept answer), and `unmatched` for a 404 nothing
 * claimed: a scanner's thousand made-up paths are one series, not a thousand.
 */
export function routeTemplate(req: Request, status: number): string {
  const route = (req.route as { path?: string } | undefined)?.path;
  // Nest's own catch-all (`*path`) is what answers a 404 for an unknown API path.
  if (route && !route.includes('*')) return route;
  const path = req.path;
  if (path.startsWith('/s/')) return '/s/*';
  if (path.startsWith('/thumbs/')) return '/thumbs/*';
  if (path.startsWith('/assets/')) return '/assets/*';
  if (status === 404) return 'unmatched';
  if (path === '/metrics') return '/metrics';
  if (path.startsWith('/api/')) {
    // Answered before Nest's routing (a kept answer, a counted view): the path as its route would spell it.
    const [, , area, param, rest] = path.split('/');
    const named = param === undefined ? '' : /^\d+$/.test(param) ? '/:id' : area === 'categories' || area === 'performers' ? '/:slug' : `/${param}`;
    return `/api/${area}${named}${rest ? `/${rest}` : ''}`;
  }
  return 'page';
}

/** Times every request into `http_request_duration_seconds`; a client gone before the answer counts as aborted. */
export function requestMetrics(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      if (!res.writableFinished) {
        metrics.aborted.inc({ method: req.method, route: routeTemplate(req, res.statusCode) });
        return;
      }
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.httpDuration.observe({ method: req.method, route: routeTemplate(req, res.statusCode), status: String(res.statusCode) }, seconds);
    });
    next();
  };
}

/** What `GET /metrics` answers to a request with this Authorization header (the API's route and the worker's). */
export async function metricsAnswer(metrics: Metrics, authorization: string | undefined): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  if (!metrics.authorized(authorization)) {
    return { status: 401, headers: { 'Content-Type': 'application/json; charset=utf-8', 'WWW-Authenticate': 'Bearer', 'Cache-Control': 'no-store' }, body: JSON.stringify({ error: 'Unauthorized', statusCode: 401 }) };
  }
  return { status: 200, headers: { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' }, body: await metrics.registry.metrics() };
}

/** `GET /metrics`: 404 while METRICS_TOKEN is empty, 401 in the contract's error shape without its bearer token. */
export function metricsRoute(metrics: Metrics) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!metrics.enabled || req.path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    metricsAnswer(metrics, req.headers.authorization).then(({ status, headers, body }) => {
      res.status(status).set(headers).end(body);
    }, next);
  };
}

/** A server of `GET /metrics` alone, for a process without the API's HTTP (the worker: WORKER_METRICS_PORT). */
export function metricsServer(metrics: Metrics): http.Server {
  return http.createServer((req, res) => {
    if (req.url !== '/metrics' || req.method !== 'GET') {
      res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: 'Not found', statusCode: 404 }));
      return;
    }
    void metricsAnswer(metrics, req.headers.authorization).then(({ status, headers, body }) => res.writeHead(status, headers).end(body));
  });
}
