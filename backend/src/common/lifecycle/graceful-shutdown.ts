import { type INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AppConfig } from '../../config/app-config';
import { Lifecycle } from './lifecycle';

const logger = new Logger('Shutdown');

/**
 * SIGTERM (or SIGINT) drains the API (docs/operating.md › "Liveness, readiness and draining"): readiness fails at
 * once; for SHUTDOWN_DRAIN_MS the process still answers everything (a balancer polling readiness stops sending
 * meanwhile; answers say `Connection: close`); then the listener closes, idle connections go, and requests in
 * flight finish (cut after SHUTDOWN_TIMEOUT_MS); then the app closes, which flushes the buffered counts, and the
 * process exits 0. A second signal during the drain is ignored: the first one's exit comes.
 */
export function drainOnSignals(app: INestApplication, config: AppConfig['shutdown']): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    drain(app, config, signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`The drain failed: ${error instanceof Error ? error.stack : String(error)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, onSignal);
}

export async function drain(app: INestApplication, { drainMs, timeoutMs }: AppConfig['shutdown'], signal: string): Promise<void> {
  app.get(Lifecycle).beginDrain();
  logger.log(`${signal}: not ready from now on; the listener closes in ${drainMs} ms`);
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  const server = app.getHttpServer() as Server;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => {
    logger.warn(`Requests still in flight after ${timeoutMs} ms: their connections are closed`);
    server.closeAllConnections();
  }, timeoutMs);
  await closed;
  clearTimeout(cut);
  // Hooks: the counters' buffered views and likes are written, the queues and connections closed.
  await app.close();
  logger.log('Drained');
}
