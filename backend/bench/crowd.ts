import autocannon from 'autocannon';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import type * as netTypes from 'node:net';

/**
 * Loopback addresses for a crowd of viewers: 127.0.{block}.1 … 127.0.{block}.{count}. nginx limits reads per
 * address (10 a second), as it must on the public site, so a load from one address would measure the limit; a
 * crowd spreads it as a real audience does. Linux answers the whole of 127.0.0.0/8 on `lo`.
 */
export function crowdAddresses(block: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `127.0.${block}.${i + 1}`);
}

/**
 * A bounded autocannon run whose connections come from `addresses` in turn. autocannon connects with
 * `net.connect(port, host)` and has no option for the source address, so, for the run only, that call gains a
 * `localAddress` (other callers' arguments are left alone).
 */
/** The `net` module object itself (autocannon's `require('net')`), whose properties can be replaced; an ES namespace's cannot. */
const net = createRequire(__filename)('node:net') as typeof netTypes;

export async function crowdLoad(options: autocannon.Options, addresses: string[]): Promise<autocannon.Result> {
  const original = net.connect;
  let next = 0;
  const patched = ((...args: unknown[]) => {
    if (typeof args[0] === 'number' && typeof args[1] === 'string' && args.length === 2) {
      return original({ port: args[0], host: args[1], localAddress: addresses[next++ % addresses.length] });
    }
    return (original as (...a: unknown[]) => netTypes.Socket)(...args);
  }) as typeof net.connect;
  (net as { connect: typeof net.connect }).connect = patched;
  try {
    return await autocannon(options);
  } finally {
    (net as { connect: typeof net.connect }).connect = original;
  }
}

/** Status counts of a run, `{ '200': n, '503': m }`, and whether any connection failed or timed out. */
export function statusesOf(result: autocannon.Result): Record<string, number> {
  const stats = (result as unknown as { statusCodeStats: Record<string, { count: number }> }).statusCodeStats ?? {};
  return Object.fromEntries(Object.entries(stats).map(([code, { count }]) => [code, count]));
}

/** One POST from `localAddress`; resolves with the status and the parsed body (a connection error rejects). */
export function postFrom(url: string, body: unknown, localAddress: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(body));
    const request = http.request(url, { method: 'POST', localAddress, agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON (nginx's own error page)
        }
        resolve({ status: response.statusCode ?? 0, body: parsed });
      });
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/**
 * Each address counts one view of `videoId` through `base` (nginx), spread over `spreadMs`; the statuses of the
 * answers, in order. A viewer is an address: the API dedupes guests by their network.
 */
export async function viewsFrom(base: string, videoId: number, addresses: string[], spreadMs: number): Promise<number[]> {
  const gap = spreadMs / addresses.length;
  return Promise.all(
    addresses.map(async (address, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * gap));
      try {
        return (await postFrom(`${base}/api/video/increment-views`, { videoId }, address)).status;
      } catch {
        return 0;
      }
    }),
  );
}
