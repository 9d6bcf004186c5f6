import { BadRequestException } from '@nestjs/common';
import type { Request } from 'express';

/** A host as a URL may carry it: a name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin the site's own absolute URLs are written with: PUBLIC_URL when set, else the request's protocol and
 * host as Express sees them (X-Forwarded-Proto and -Host from a trusted proxy, TRUST_PROXY). A Host that no URL
 * could carry is a 400.
 */
export function requestOrigin(req: Request, publicUrl: string | null): string {
  if (publicUrl) return publicUrl;
  const host = req.host;
  if (!host || !HOST.test(host)) throw new BadRequestException('Bad Host header');
  return `${req.protocol}://${host.toLowerCase()}`;
}
