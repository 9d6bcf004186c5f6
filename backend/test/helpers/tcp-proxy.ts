import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import * as net from 'node:net';
import * as path from 'node:path';
import { randomFixedPort } from '../../bench/free-port';

/** Each scheme's port, for a URL that names none. */
const DEFAULT_PORTS: Record<string, number> = { 'postgres:': 5432, 'postgresql:': 5432, 'redis:': 6379, 'http:': 80, 'https:': 443 };

/** The host and port a dependency's URL (TEST_DATABASE_URL, TEST_REDIS_URL, an S3 endpoint) points at. */
export function targetOf(url: string): { host: string; port: number } {
  const u = new URL(url);
  const port = u.port ? Number(u.port) : DEFAULT_PORTS[u.protocol];
  if (!port) throw new Error(`No port for ${u.protocol} in ${url}`);
  return { host: u.hostname, port };
}

/**
 * A real TCP proxy between the app and a dependency (PostgreSQL, Redis), for fault tests: `cut()` stops
 * listening and resets every open connection, as a network partition or a restarting server would;
 * `restore()` listens again on the same port. Nothing in the driver is mocked.
 */
export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** New connections still to be reset by `blip()`; 0 once a client has met them all. */
  refusing = 0;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** A proxy to the server `url` names (its scheme's port when it names none). */
  static to(url: string): Promise<TcpProxy> {
    return TcpProxy.start(targetOf(url));
  }

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target.host, target.port);
    await proxy.restore();
    return proxy;
  }

  /**
   * Listens (again) on the proxy's port. The first call picks a free port below the kernel's ephemeral range
   * (32768 and up on Linux): a port the OS handed out could be handed to another socket's outgoing
   * connection while the proxy is cut, and `restore()` would then fail with EADDRINUSE (seen in CI).
   */
  async restore(): Promise<void> {
    if (this.server) return;
    if (this.port !== 0) return this.listenOn(this.port);
    for (let tries = 0; ; tries += 1) {
      try {
        return await this.listenOn(randomFixedPort());
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || tries >= 50) throw error;
      }
    }
  }

  private async listenOn(port: number): Promise<void> {
    const server = net.createServer((client) => {
      if (this.refusing > 0) {
        this.refusing -= 1;
        client.resetAndDestroy();
        return;
      }
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = port;
    this.server = server;
  }

  /** Refuses new connections and resets the open ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * A moment's outage that does not depend on the clock: resets every open connection, then resets the next
   * `refused` new ones as they arrive, and relays again after them. A client that retries gets through on a
   * later try however slow the machine is; `cut()` then `restore()` after a delay races its backoff.
   */
  blip(refused = 1): void {
    for (const s of this.sockets) s.resetAndDestroy();
    this.sockets.clear();
    this.refusing = refused;
  }

  /** `url` with its host and port replaced by the proxy's. */
  url(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  close(): Promise<void> {
    return this.cut();
  }
}

/**
 * The same proxy in a process of its own (test/helpers/tcp-proxy-process.mjs), for a test that runs a load
 * generator in its own event loop: there the relayed traffic would wait on the load's turns, and the app would
 * meet timeouts of the test's making rather than the faults it asks for.
 */
export class TcpProxyProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxyProcess> {
    for (let tries = 0; ; tries += 1) {
      const port = randomFixedPort();
      const child = fork(path.join(__dirname, 'tcp-proxy-process.mjs'), [target.host, String(target.port), String(port)], { stdio: 'inherit' });
      const proxy = new TcpProxyProcess(child, port);
      try {
        await proxy.ask('listen');
        return proxy;
      } catch (error) {
        child.kill();
        if (!String(error).includes('EADDRINUSE') || tries >= 50) throw error;
      }
    }
  }

  private ask(command: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: { done?: string; error?: string }) => {
        if (message.done !== command && !message.error) return;
        this.child.off('message', onMessage);
        if (message.error) reject(new Error(message.error));
        else resolve();
      };
      this.child.on('message', onMessage);
      if (command !== 'listen') this.child.send(command);
    });
  }

  /** Refuses new connections and resets the open ones. */
  cut(): Promise<void> {
    return this.ask('cut');
  }

  /** Listens again on the same port. */
  restore(): Promise<void> {
    return this.ask('restore');
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.kill();
    await once(this.child, 'exit');
  }
}
