/**
 * The text of robots.txt and of the sitemaps (sitemaps.org 0.9 and Google's video extension 1.1): pure functions
 * of what the service read, so that escaping and limits are tested without a server.
 */

export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const VIDEO_NS = 'http://www.google.com/schemas/sitemap-video/1.1';
/** The sitemap protocol's limit of URLs per file (SITEMAP_URLS_PER_FILE may only lower it). */
export const MAX_URLS_PER_FILE = 50_000;
/** Google's limits: tags per video, characters of a title and of a description, seconds of a duration. */
export const MAX_TAGS = 32;
export const MAX_TITLE = 100;
export const MAX_DESCRIPTION = 2048;
export const MAX_DURATION_SECONDS = 28_800;

/**
 * Characters XML 1.0 cannot carry at all, not even escaped: C0 controls but tab, newline and carriage return,
 * lone surrogates, U+FFFE and U+FFFF.
 */
// eslint-disable-next-line no-control-regex -- matching the control characters XML forbids is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Any string as XML character data or an attribute value: what XML cannot carry left out, the rest escaped. */
export function xmlText(value: string): string {
  if (!NEEDS_WORK.test(value)) return value; // most values (every URL the service makes): nothing to do
  return value.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
/** Anything `xmlText` would change. */
// eslint-disable-next-line no-control-regex -- as NOT_XML
const NEEDS_WORK = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF&<>"']/;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The sitemap index: one `<sitemap>` per file, by absolute URL. */
export function sitemapIndexXml(locs: string[]): string {
  const entries = locs.map((loc) => `<sitemap><loc>${xmlText(loc)}</loc></sitemap>\n`).join('');
  return `${XML_DECLARATION}<sitemapindex xmlns="${SITEMAP_NS}">\n${entries}</sitemapindex>\n`;
}

export const URLSET_OPEN = `${XML_DECLARATION}<urlset xmlns="${SITEMAP_NS}" xmlns:video="${VIDEO_NS}">\n`;
export const URLSET_CLOSE = '</urlset>\n';

/** A plain page's `<url>` (a category's or performer's). */
export function pageUrlXml(loc: string): string {
  return `<url><loc>${xmlText(loc)}</loc></url>\n`;
}

/** What one video's entry says, every URL already absolute. */
export interface VideoEntry {
  loc: string;
  /** Null when the video has no image: Google refuses a `<video:video>` without one, so only `<loc>` is given. */
  thumbnailLoc: string | null;
  title: string;
  description: string;
  playerLoc: string;
  duration: number | null;
  viewCount: number;
  publicationDate: Date;
  tags: string[];
}

/** A watch page's `<url>` with its `<video:video>`, the elements in the order of Google's schema. */
export function videoUrlXml(v: VideoEntry): string {
  if (v.thumbnailLoc === null) return pageUrlXml(v.loc);
  const el = (name: string, value: string) => `<video:${name}>${xmlText(value)}</video:${name}>`;
  const parts = [
    el('thumbnail_loc', v.thumbnailLoc),
    el('title', truncate(v.title, MAX_TITLE)),
    el('description', truncate(v.description, MAX_DESCRIPTION)),
    el('player_loc', v.playerLoc),
    v.duration !== null && v.duration >= 1 && v.duration <= MAX_DURATION_SECONDS ? el('duration', String(Math.floor(v.duration))) : '',
    el('view_count', String(Math.max(0, Math.floor(v.viewCount)))),
    el('publication_date', v.publicationDate.toISOString()),
    // After the tags: the schema's sequence (test/fixtures/sitemap-schemas/sitemap-video.xsd) wants it there.
    ...uniqueTags(v.tags).map((tag) => el('tag', tag)),
    el('family_friendly', 'no'),
  ];
  return `<url><loc>${xmlText(v.loc)}</loc><video:video>${parts.join('')}</video:video></url>\n`;
}

/** A video's description (shared with the pages' heads and the web client's JSON-LD). */
export { describeVideo } from '@hunktube/shared';

function uniqueTags(tags: string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const tag of tags) {
    const key = tag.trim().toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    kept.push(tag.trim());
    if (kept.length === MAX_TAGS) break;
  }
  return kept;
}

/** At most `max` UTF-16 units, never splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return text.slice(0, end);
}

/**
 * Paths crawlers are kept out of: the API, search results, the member's pages and sign-in, playlists (a
 * member's), the admin pages and signed media. Watch, category, performer and embed pages stay open.
 */
export const DISALLOWED_PATHS = ['/api/', '/search', '/me/', '/login', '/register', '/playlists', '/admin', '/s/'];

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    ...DISALLOWED_PATHS.map((p) => `Disallow: ${p}`),
    'Allow: /embed/',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
