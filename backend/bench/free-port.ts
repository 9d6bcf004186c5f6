import { createServer } from 'node:net';

/**
 * Where ports handed to other processes are taken from: below Linux's ephemeral range (32768–60999), above the
 * well-known services. A port the kernel gave for `listen(0)` and that was closed again can be given to the next
 * `listen(0)` of any other process (the other test worker's apps make hundreds a minute) before the process it was
 * meant for listens on it; a health poll then reaches that other app. CI saw it: the drain test's server "answered
 * ready" while draining, as another worker's app had the port for a moment.
 */
export const FIXED_PORTS = { low: 20000, high: 32000 };

/** A port picked at random in FIXED_PORTS, for a caller that listens on it itself (and tries another when it is taken). */
export function randomFixedPort(): number {
  return FIXED_PORTS.low + Math.floor(Math.random() * (FIXED_PORTS.high - FIXED_PORTS.low));
}

/** A TCP port on loopback, outside the ephemeral range, that was free a moment ago: for a process the caller starts. */
export async function freePort(): Promise<number> {
  for (let tries = 0; ; tries += 1) {
    const port = randomFixedPort();
    if (await isFree(port)) return port;
    if (tries >= 50) throw new Error(`No free port found between ${FIXED_PORTS.low} and ${FIXED_PORTS.high} in 50 tries`);
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(false) : reject(error)));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
