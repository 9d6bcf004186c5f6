import type { Request } from 'express';
import type { AppConfig, Brand } from '../../config/app-config';

/** Which of the deployment's sites a request is for: its brand, its name and the origin its addresses use. */
export interface SiteIdentity {
  brand: Brand;
  name: string;
  /** The site's configured origin (PUBLIC_URL, or the brand host's own): never one the request named. */
  origin: string;
}

/**
 * The site a request reached (docs/security.md › "Origins"): a host named in BRAND_HOSTS is its brand's site, on
 * the origin its entry names; any other host is the main site (BRAND, SITE_NAME, PUBLIC_URL). The request only
 * chooses among the configured sites: what the answers write (canonical URLs, Open Graph, sitemaps, embed codes)
 * and what caches are keyed on are the configured origins, so a made-up Host, port or X-Forwarded-Proto builds
 * nothing new and appears nowhere. One catalogue and one set of accounts behind them all.
 */
export function siteOf(req: Request, config: AppConfig): SiteIdentity {
  const entry = brandHostOf(req, config);
  if (entry === '') return { brand: config.brand, name: config.siteName, origin: config.publicUrl };
  const brand = config.brandHosts[entry];
  return { brand, name: config.brandSiteNames[brand] ?? config.siteName, origin: config.brandOrigins[entry] };
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
  return [new URL(config.publicUrl).host, ...Object.keys(config.brandHosts)];
}
