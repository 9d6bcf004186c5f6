import type { Application, Request } from 'express';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

/**
 * The client's address: Express's `req.ip`, which honours the app's `trust proxy` setting (TRUST_PROXY), so a
 * forged X-Forwarded-For from an untrusted peer changes nothing. IPv4-mapped IPv6 is shown as plain IPv4.
 */
export function clientIp(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/**
 * The network a client is counted by: an IPv4 address as it is, an IPv6 address by its /64 (one subscriber's
 * line or one host's allocation: a single client can use any of its 2^64 addresses), written `2001:db8:1:2::/64`.
 * Rate limits, dedupe of views and likes and the removal queue's budget all count by it.
 */
export function clientNetwork(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  let address = ipaddr.parse(ip);
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

/**
 * The networks found lately, per app (its `trust proxy` decides), by the peer's address and the X-Forwarded-For it
 * sent: every read counts against its network's budget (read-budget.ts), and working it out again each time cost
 * 2 µs (ipaddr.js) plus 7 µs with a forwarded address (Express's `req.ip`), where a look-up costs a tenth of that.
 */
const networksByApp = new WeakMap<Application, LRUCache<string, string>>();

/** The network of the request's client (see `clientNetwork`). */
export function clientNetworkOf(req: Request): string {
  const forwarded = req.headers['x-forwarded-for'];
  const key = `${req.socket?.remoteAddress ?? ''}\n${Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? '')}`;
  // (a long chain of forwarded addresses is worked out each time rather than kept: keys stay small)
  if (key.length > 200) return clientNetwork(clientIp(req));
  let networks = req.app ? networksByApp.get(req.app) : undefined;
  if (req.app && !networks) networksByApp.set(req.app, (networks = new LRUCache<string, string>({ max: 10_000 })));
  let network = networks?.get(key);
  if (network === undefined) {
    network = clientNetwork(clientIp(req));
    networks?.set(key, network);
  }
  return network;
}
