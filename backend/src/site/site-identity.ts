import type { Request } from 'express';
import type { AppConfig, Brand } from '../config/app-config';
import { requestOrigin } from '../seo/request-origin';

/** Which of the deployment's sites a request is for: its brand, its name and the origin its addresses use. */
export interface SiteIdentity {
  brand: Brand;
  name: string;
  origin: string;
}

/**
 * The site a request reached (README › "Brands by host"): a host named in BRAND_HOSTS is its brand's site, on
 * its own origin (PUBLIC_URL's scheme when set, else the request's); any other host is the main site (BRAND,
 * SITE_NAME, PUBLIC_URL). One catalogue and one set of accounts behind them all.
 */
export function siteOf(req: Request, config: AppConfig): SiteIdentity {
  const entry = brandHostOf(req, config);
  if (entry === '') return { brand: config.brand, name: config.siteName, origin: requestOrigin(req, config.publicUrl) };
  const brand = config.brandHosts[entry];
  const host = req.host.toLowerCase();
  const scheme = config.publicUrl ? new URL(config.publicUrl).protocol.replace(':', '') : req.protocol;
  return { brand, name: config.brandSiteNames[brand] ?? config.siteName, origin: `${scheme}://${host}` };
}

/**
 * The BRAND_HOSTS entry a request's host matches (with its port, else without), or '' for the main site: what
 * tells apart the answers that depend on the site (GET /api/site), in few enough values to key a cache with.
 */
export function brandHostOf(req: Request, config: AppConfig): string {
  const host = req.host?.toLowerCase() ?? '';
  if (config.brandHosts[host] !== undefined) return host;
  const name = host.replace(/:\d+$/, '');
  return config.brandHosts[name] !== undefined ? name : '';
}

/** Every host name this deployment answers as one of its sites (removal requests name videos on any of them). */
export function siteHosts(config: AppConfig): string[] {
  return [...(config.publicUrl ? [new URL(config.publicUrl).host] : []), ...Object.keys(config.brandHosts)];
}
