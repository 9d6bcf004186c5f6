/**
 * The HTML of a page's document as the server sends it (docs/web-client.md › "One author per page"): the built
 * index.html with the page's head, its bootstrap block and, for a page drawn on the server, its body. Pure
 * functions of what the render read, so that escaping is tested without a server; entry-server.tsx calls them.
 */
import { BOOTSTRAP_ID, type Bootstrap } from '@/lib/bootstrap';
import { SERVER_HEAD_ATTRIBUTE } from '@/lib/server-head';

/** The RTA label ("Restricted To Adults"); the build's index.html carries it, a shell without one gets it here. */
export const RTA_LABEL = 'RTA-5042-1996-1400-1577-RTA';

/** A meta description's length; search engines show some 160 characters. */
export const MAX_DESCRIPTION = 300;

export interface PageHead {
  /** The document title, as DocumentTitle sets it for the same page in the browser. */
  title: string;
  description?: string;
  /** Absolute. */
  canonical?: string;
  /** `noindex`: search results, sign-in, the member's and admin pages, unknown addresses. */
  noindex?: boolean;
  /** Open Graph properties (`og:title` …) in order; their Twitter card twins are derived from them. */
  openGraph?: [property: string, content: string][];
  /** The picture a link preview shows (`og:image` with its text and size, and its Twitter card twins). */
  image?: ShareImage;
  /** schema.org objects, each in a `<script type="application/ld+json">`. */
  jsonLd?: object[];
  /** The page's largest image (the player's poster), fetched at once instead of once the app has asked for it. */
  preloadImage?: string;
  /** An address with no page ("Page not found", "Video not found"): no link preview, nothing drawn on the server. */
  missing?: boolean;
}

/** A page's share picture: absolute URL, what it shows, and its size in pixels where known. */
export interface ShareImage {
  url: string;
  alt: string;
  width?: number;
  height?: number;
}

/** What a page drawn on the server loads, after its head's own elements (entry-server.tsx). */
export interface PageLoads {
  /** The route's style sheets, named in the head so that the page is styled at once. */
  styles: string[];
  /** Signed stream playlists and segments the page plays, fetched at once (the player's hls.js reads the same). */
  streams: string[];
  /** API reads the page's first script makes (a watch page's pre-roll zones), fetched at once. */
  reads?: string[];
  /** The page's first script and what it needs (already HTML: earlyTags), right after the streams. */
  early: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Any string as HTML text or a quoted attribute value. */
export function htmlText(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JSON for a `<script>` element: every `<`, `>` and `&` written as a JSON escape, so that no value can close the
 * element or open a comment, and JSON.parse gives back exactly what was written.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** At most `max` UTF-16 units, never splitting a surrogate pair, with an ellipsis when cut. */
export function shorten(text: string, max = MAX_DESCRIPTION): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 2]) ? max - 2 : max - 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** The elements of a page's head, every one that describes the page marked as the server's. */
export function headHtml(head: PageHead, loads?: PageLoads): string {
  const mark = SERVER_HEAD_ATTRIBUTE;
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${mark} ${attribute}="${htmlText(key)}" content="${htmlText(content)}">`;
  const parts = [`<title ${mark}>${htmlText(head.title)}</title>`];
  if (head.description) parts.push(meta('name', 'description', head.description));
  if (head.noindex) parts.push(meta('name', 'robots', 'noindex'));
  if (head.canonical) parts.push(`<link ${mark} rel="canonical" href="${htmlText(head.canonical)}">`);
  if (head.preloadImage) parts.push(`<link ${mark} rel="preload" as="image" href="${htmlText(head.preloadImage)}" fetchpriority="high">`);
  for (const style of loads?.styles ?? []) parts.push(`<link rel="stylesheet" crossorigin href="${htmlText(style)}">`);
  for (const stream of [...(loads?.streams ?? []), ...(loads?.reads ?? [])]) parts.push(`<link ${mark} rel="preload" as="fetch" crossorigin href="${htmlText(stream)}">`);
  if (loads?.early) parts.push(loads.early);
  const og = [...(head.openGraph ?? []), ...imageProperties(head.image)];
  for (const [property, content] of og) parts.push(meta('property', property, content));
  const ogValue = (property: string) => og.find(([p]) => p === property)?.[1];
  if (og.length) {
    parts.push(meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'));
    for (const key of ['title', 'description', 'image', 'image:alt'] as const) {
      const value = ogValue(`og:${key}`);
      if (value) parts.push(meta('name', `twitter:${key}`, value));
    }
  }
  for (const data of head.jsonLd ?? []) parts.push(`<script ${mark} type="application/ld+json">${scriptJson(data)}</script>`);
  return parts.join('\n    ');
}

/** `og:image` and what Open Graph says of it: its text, and its size where known. */
function imageProperties(image: ShareImage | undefined): [string, string][] {
  if (!image) return [];
  const size: [string, string][] = image.width && image.height ? [['og:image:width', String(image.width)], ['og:image:height', String(image.height)]] : [];
  return [['og:image', image.url], ['og:image:alt', image.alt], ...size];
}

/** The bootstrap block: JSON the browser never runs (a data block), so the Content-Security-Policy allows it. */
export function bootstrapHtml(bootstrap: Bootstrap): string {
  return `<script type="application/json" id="${BOOTSTRAP_ID}">${scriptJson(bootstrap)}</script>`;
}

/**
 * The built index.html cut where a page's head goes: in place of its `<title>` (the build's placeholder), else
 * before `</head>`, else after the doctype. The RTA label is added when the build has none.
 */
export interface ShellTemplate {
  before: string;
  after: string;
}

/** The shells cut so far: a build has two (index.html, and the early script's, drawn pages alternating with heads). */
const shells = new Map<string, ShellTemplate>();
/** Shells kept at most: a few builds' worth (tests hand several); past it the list starts over. */
const SHELLS_KEPT = 8;

export function shellTemplate(indexHtml: string): ShellTemplate {
  let template = shells.get(indexHtml);
  if (!template) {
    if (shells.size >= SHELLS_KEPT) shells.clear();
    template = cutShell(indexHtml);
    shells.set(indexHtml, template);
  }
  return template;
}

function cutShell(indexHtml: string): ShellTemplate {
  const rta = indexHtml.includes(RTA_LABEL) ? '' : `<meta name="rating" content="${RTA_LABEL}">`;
  const title = /<title>[^<]*<\/title>/i.exec(indexHtml);
  if (title) {
    return { before: indexHtml.slice(0, title.index) + rta, after: indexHtml.slice(title.index + title[0].length) };
  }
  const head = /<\/head>/i.exec(indexHtml) ?? /^(?:<!doctype html>)?/i.exec(indexHtml);
  const at = head && head[0].toLowerCase() === '</head>' ? head.index : (head?.[0].length ?? 0);
  return { before: indexHtml.slice(0, at) + rta, after: indexHtml.slice(at) };
}

/** The element the web client renders into (index.html). */
const ROOT = '<div id="root"></div>';

/** The page: the shell with its head, its bootstrap block and, when the server drew it, its body in `#root`. */
export function documentHtml(template: ShellTemplate, head: string, bootstrap: Bootstrap, body?: string): string {
  const after = body ? template.after.replace(ROOT, () => `<div id="root">${body}</div>`) : template.after;
  return `${template.before}${head}\n    ${bootstrapHtml(bootstrap)}${after}`;
}

/**
 * The web client's build as the API read it at start (backend/src/web/web-build.ts): its index.html, the chunks
 * of its modules from Vite's manifest, and the rendered pages' first script (src/early.ts).
 */
export interface DocumentBuild {
  indexHtml: string;
  /** The scripts and style sheets modules of the client need besides the entry's, as URL paths. */
  chunks: (sources: string[]) => { scripts: string[]; styles: string[] };
  early: EarlyEntry | null;
}

/** The first script of a page drawn on the server, which loads the app once the page shows its first picture. */
export interface EarlyEntry {
  /** index.html without the app's entry script and its modules' preloads. */
  indexHtml: string;
  /** The early script's own URL path. */
  script: string;
  /** Its imports, hls.js first, for a page with a stream; and without hls.js, for the others. */
  imports: { stream: string[]; still: string[] };
}

/**
 * The early script's tag, which preloads `routeScripts` when it loads the app, and its own imports preloaded,
 * hls.js first on a page with a stream.
 */
export function earlyTags(early: EarlyEntry, routeScripts: string[], stream: boolean): string {
  return [
    `<script type="module" async crossorigin src="${htmlText(early.script)}" data-route-scripts="${htmlText(routeScripts.join(' '))}"></script>`,
    ...(stream ? early.imports.stream : early.imports.still).map((script) => `<link rel="modulepreload" crossorigin href="${htmlText(script)}">`),
  ].join('\n    ');
}
