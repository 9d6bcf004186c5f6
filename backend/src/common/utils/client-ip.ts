import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

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

/** The network of the request's client (see `clientNetwork`). */
export const clientNetworkOf = (req: Request): string => clientNetwork(clientIp(req));
