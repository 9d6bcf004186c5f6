import type { Request } from 'express';

/**
 * The client's address: Express's `req.ip`, which honours the app's `trust proxy` setting (TRUST_PROXY), so a
 * forged X-Forwarded-For from an untrusted peer changes nothing. IPv4-mapped IPv6 is shown as plain IPv4.
 */
export function clientIp(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
