import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/** The policy's directives, as helmet takes them. */
type CspDirectives = NonNullable<Extract<HelmetOptions['contentSecurityPolicy'], object>['directives']>;

/**
 * The pages other sites may frame: the embeddable player, `/embed/{id}`, and nothing else. Matched on the path
 * exactly as sent (not normalised), so `/embed/1/../admin` or an encoded slash is not it.
 */
export const EMBEDDABLE_PAGE = /^\/embed\/\d+\/?$/;

/**
 * Powerful browser features the site never uses, denied to its pages and to anything they frame (docs/security.md
 * › "Headers and small things"); the player's own (autoplay, fullscreen, picture-in-picture) stay this site's.
 * Only features Chromium knows are named: an unknown one is a warning in every page's console (Chromium 156 does
 * not know `bluetooth`, and the browser tests fail on that warning).
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()', 'autoplay=(self)', 'browsing-topics=()', 'camera=()', 'display-capture=()',
  'encrypted-media=()', 'fullscreen=(self)', 'geolocation=()', 'gyroscope=()', 'hid=()', 'idle-detection=()',
  'magnetometer=()', 'microphone=()', 'midi=()', 'payment=()', 'picture-in-picture=(self)', 'publickey-credentials-get=()',
  'screen-wake-lock=()', 'serial=()', 'usb=()', 'xr-spatial-tracking=()',
].join(', ');

/**
 * Helmet's headers for every answer (with the Permissions-Policy above on pages), and for the embeddable player
 * the same ones except that any site may frame it: `frame-ancestors *` in the Content-Security-Policy, no
 * `X-Frame-Options` (which can only say "this site" or "nobody"), and `Cross-Origin-Resource-Policy: cross-origin`
 * so that a page isolated with `Cross-Origin-Embedder-Policy` may frame it too. Every other page still refuses
 * framing (`frame-ancestors 'self'`, `X-Frame-Options: SAMEORIGIN`).
 */
export function securityHeaders(
  options: HelmetOptions,
  extra?: () => Promise<{ key: string; sources: ExtraSources }>,
  /** Paths that are never a page (media, the web client's built files): they get the policy without extra sources. */
  notAPage: (path: string) => boolean = () => false,
): RequestHandler {
  const build = (sources: ExtraSources | null) => {
    const csp = typeof options.contentSecurityPolicy === 'object' ? options.contentSecurityPolicy : {};
    const directives = sources ? withSources(csp.directives ?? {}, sources) : (csp.directives ?? {});
    const everyPage = frozenHeaders(helmet({ ...options, contentSecurityPolicy: { ...csp, directives } }));
    const embeddable = frozenHeaders(
      helmet({
        ...options,
        contentSecurityPolicy: { ...csp, directives: { ...directives, 'frame-ancestors': ['*'] } },
        xFrameOptions: false,
        crossOriginResourcePolicy: { policy: 'cross-origin' },
        // (the cast: helmet's types refuse xFrameOptions beside a spread that might also hold its alias, frameguard)
      } as HelmetOptions),
    );
    return (req: Request, res: Response, next: NextFunction) => (EMBEDDABLE_PAGE.test(req.path) ? embeddable(req, res, next) : everyPage(req, res, next));
  };
  const plain = build(null);
  // The headers of the sources last asked for: rebuilt only when an admin's change moved them.
  let last: { key: string; headers: RequestHandler } | null = null;
  return (req, res, next) => {
    // The policy on documents only: it governs a page and what it frames, and means nothing on an API answer,
    // where its 400 bytes were a third more header on a small JSON (the bench's hot reads lost some 10% of their rate).
    if (req.path.startsWith('/api/')) return plain(req, res, next);
    res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
    // The extra sources matter to documents only; media and the built files (most of a page's requests) do not ask
    // for them, which would read the zones on every request while the invalidation bus is down.
    if (!extra || notAPage(req.path)) return plain(req, res, next);
    extra().then(
      ({ key, sources }) => {
        if (last?.key !== key) last = { key, headers: sources.origins.length + sources.scriptHashes.length + sources.styleHashes.length ? build(sources) : plain };
        last.headers(req, res, next);
      },
      // Without the zones (the database is down and they were never read): the policy without ad sources.
      () => plain(req, res, next),
    );
  };
}

/** What ad zones add to the pages' policy (docs/ads.md › "CSP"): their origins and their inline blocks' hashes. */
export interface ExtraSources {
  origins: string[];
  scriptHashes: string[];
  styleHashes: string[];
}

/**
 * The directives with the ad zones' sources: their origins may serve scripts, styles, images, media, frames and
 * answer fetches (a VAST tag, a tracker); their inline scripts and styles are allowed by hash, nothing else inline.
 * A banner's `srcdoc` frame has the page's policy, so this is what lets it load.
 */
function withSources(directives: CspDirectives, sources: ExtraSources): CspDirectives {
  const add = (name: string, ...values: string[]) => {
    const base = (directives[name] as string[] | null | undefined) ?? ["'self'"];
    return [...base, ...values.filter((value) => !base.includes(value))];
  };
  const { origins, scriptHashes, styleHashes } = sources;
  return {
    ...directives,
    'script-src': add('script-src', ...origins, ...scriptHashes),
    'style-src': add('style-src', ...origins, ...styleHashes),
    'img-src': add('img-src', ...origins),
    'media-src': add('media-src', ...origins),
    'connect-src': add('connect-src', ...origins),
    'frame-src': add('frame-src', ...origins),
  };
}

/**
 * Helmet's headers, computed once: helmet's middleware builds the Content-Security-Policy string and runs a
 * dozen small middleware functions on every request, though with static options (ours: no directive is a
 * function, no nonce) every answer gets the same headers. This runs it once on a recording response and then
 * sets what it set and removes what it removed, in the same order, on every answer.
 */
export function frozenHeaders(middleware: RequestHandler): RequestHandler {
  const actions: (['set', string, string] | ['remove', string])[] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => actions.push(['set', name, String(value)]),
    removeHeader: (name: string) => actions.push(['remove', name]),
    getHeader: () => undefined,
  };
  let failed: unknown;
  let done = false;
  void middleware({ headers: {}, method: 'GET', url: '/' } as Request, recorder as unknown as Response, (error?: unknown) => {
    failed = error;
    done = true;
  });
  if (!done || failed) throw new Error(`The security headers' middleware does not answer synchronously with static options${failed ? `: ${String(failed)}` : ''}`);
  const sets = actions.filter((a): a is ['set', string, string] => a[0] === 'set').map(([, name, value]) => [name, value] as const);
  const removes = actions.filter((a): a is ['remove', string] => a[0] === 'remove').map(([, name]) => name);
  return (_req: Request, res: Response, next: NextFunction): void => {
    for (const [name, value] of sets) res.setHeader(name, value);
    for (const name of removes) res.removeHeader(name);
    next();
  };
}
