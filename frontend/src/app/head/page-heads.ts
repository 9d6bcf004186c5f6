/**
 * Each route's head as the server's render writes it (docs/web-client.md › "One author per page"): title,
 * description, canonical URL, Open Graph and its Twitter card, the watch page's VideoObject and the taxon
 * pages' BreadcrumbList as JSON-LD, `noindex` where the page sets it. The routes name their head in the route
 * table (`handle.head`, app/router.tsx), beside the component the browser draws; this module is the server's
 * render's only (entry-server.tsx), so none of it is in the browser's scripts; the titles are the pages' own
 * (lib/page-titles.ts) and the JSON-LD the watch page's (videoJsonLd). The data comes from the same reads as
 * the page's body, through the render's query client.
 */
import { brandTitle, describeVideo, hasListingFilters, imageCopyOf, parseListingFilters, PLAYER_POSTER_WIDTH } from '@hunktube/shared';
import type { QueryClient } from '@tanstack/react-query';
import { type Params, type RouteMatch, type RouteObject, matchRoutes } from 'react-router';
import { tagQueryOptions } from '@/api/taxonomy/get-tag';
import { taxaQueryOptions, type CreatableTaxonKind, type TaxonKind } from '@/api/taxonomy/get-taxa';
import { videoQueryOptions } from '@/api/videos/get-video';
import { videosQueryOptions, withHidden } from '@/api/videos/get-videos';
import { parseSort, SORT_LABELS } from '@/api/videos/sorts';
import { PAGE_SIZE } from '@/features/browse/components/catalogue-listing';
import { videoJsonLd } from '@/features/watch/utils/video-json-ld';
import { ApiError } from '@/lib/api/client';
import type { Site } from '@/lib/api/types';
import { hiddenExcludeOf } from '@/lib/hidden-topics';
import { parsePage } from '@/lib/page-param';
import { isVideoId } from '@/lib/video-id';
import { PAGE_TITLES, searchTitle, taxonTitle, videoPageTitle } from '@/lib/page-titles';
import { type PageHead, type ShareImage, shorten } from './document';
import type { HeadName, RouteHandle } from './route-handle';

/** What a route's head is written from. */
export interface HeadContext {
  /** The page's address as rendered (its canonical form: docs/security.md › "Renders no one can force"), absolute. */
  url: URL;
  params: Params;
  site: Site;
  /** The site's origin as the visitor asked for it. */
  origin: string;
  queryClient: QueryClient;
  /** A stored picture's size in pixels (for link previews), null where unknown. */
  imageSize: (pathOrUrl: string | null) => Promise<{ width: number; height: number } | null>;
}

/** The heads written from a page's data, by the names the route table gives them (route-handle.ts). */
export const HEADS: Record<HeadName, (context: HeadContext) => Promise<PageHead> | PageHead> = {
  watch: (context) => watchHead(context),
  embed: (context) => embedHead(context),
  home: (context) => homeHead(context),
  search: (context) => searchHead(context),
  categories: (context) => indexHead('categories')(context),
  performers: (context) => indexHead('performers')(context),
  tags: (context) => indexHead('tags')(context),
  category: (context) => taxonHead('categories')(context),
  performer: (context) => taxonHead('performers')(context),
  tag: (context) => tagHead(context),
};

/** The site's own share picture (frontend/public/og-image.jpg, 1200 × 630, the size link previews draw large). */
export const SITE_IMAGE = { path: '/og-image.jpg', width: 1200, height: 630 } as const;

/** The head of the page at `context.url`, from the deepest route that names one; `found` when it exists. */
export async function pageHead(
  routes: RouteObject[],
  context: Omit<HeadContext, 'params'>,
): Promise<{ head: PageHead; found: boolean; draws?: string[]; failed?: boolean }> {
  const matches = matchesOf(routes, context.url.pathname);
  const match = matches.findLast((m) => (m.route.handle as RouteHandle | undefined)?.head !== undefined);
  const handle = match?.route.handle as RouteHandle | undefined;
  const { site } = context;
  let head: PageHead;
  try {
    const named = handle?.head ?? missing(PAGE_TITLES.pageNotFound);
    head = typeof named === 'string' ? await HEADS[named]({ ...context, params: match?.params ?? {} }) : { title: site.name, ...named };
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 404) head = missing(isVideoPath(context.url.pathname) ? PAGE_TITLES.videoNotFound : PAGE_TITLES.pageNotFound);
    // The catalogue could not be read (the database is down): the site's own head, as the client starts with.
    else return { head: withShareTags({ title: site.name }, context), found: false, failed: true };
  }
  return { head: withShareTags(head, context), found: !head.missing, draws: handle?.draws };
}

const matched = new WeakMap<RouteObject[], Map<string, RouteMatch[]>>();
/** Paths whose matches are kept per route table; past it the list starts over (any visitor can make new paths). */
const MATCHES_KEPT = 2_000;

/** React Router's matches of a path (it flattens and ranks the whole table each time), kept per table. */
export function matchesOf(routes: RouteObject[], pathname: string): RouteMatch[] {
  let kept = matched.get(routes);
  if (!kept) matched.set(routes, (kept = new Map()));
  let matches = kept.get(pathname);
  if (!matches) {
    if (kept.size >= MATCHES_KEPT) kept.clear();
    matches = matchRoutes(routes, pathname) ?? [];
    kept.set(pathname, matches);
  }
  return matches;
}

/** A page at an address with nothing there: noindex, and no link preview. */
function missing(title: string): PageHead {
  return { title, noindex: true, missing: true };
}

function isVideoPath(path: string): boolean {
  return /^\/(?:video|embed)\//.test(path);
}

/** The watch page: the video's title as the brand shows it, its description, poster, Open Graph video and VideoObject. */
async function watchHead(context: HeadContext): Promise<PageHead> {
  // The watch route draws "Page not found" for an address that is no video's (app/routes/watch.tsx).
  if (!isVideoId(context.params.id)) return missing(PAGE_TITLES.pageNotFound);
  const head = await videoHead(context, Number(context.params.id));
  return { ...head.page, openGraph: [...head.openGraph, ...head.video], jsonLd: [head.jsonLd] };
}

/** The embed is shared too (a framed player's page): its preview is the watch page's, without the player. */
async function embedHead(context: HeadContext): Promise<PageHead> {
  if (!isVideoId(context.params.id)) return missing(PAGE_TITLES.videoNotFound);
  const head = await videoHead(context, Number(context.params.id));
  return { ...head.page, openGraph: head.openGraph };
}

async function videoHead(context: HeadContext, id: number) {
  const { origin, site, queryClient } = context;
  const video = await queryClient.fetchQuery(videoQueryOptions(id));
  const title = brandTitle(video, site.brand);
  const watchUrl = `${origin}/video/${id}`;
  const embedUrl = `${origin}/embed/${id}`;
  const description = describeVideo(
    title,
    video.performers.map((p) => p.name),
    video.categories.map((c) => c.name),
  );
  // Crawlers and link previews get the original (JPEG where the ingest made it); the player shows the poster's
  // WebP copy, which the head starts loading before the app boots.
  const stored = video.poster ?? video.thumbnail;
  const image = absoluteImageUrl(origin, site.imageHost, stored);
  const playerPoster = absoluteImageUrl(origin, site.imageHost, imageCopyOf(video.poster, site.imageHost, PLAYER_POSTER_WIDTH));
  const openGraph: [string, string][] = [
    ['og:site_name', site.name],
    ['og:type', 'video.other'],
    ['og:title', title],
    ['og:description', shorten(description)],
    ['og:url', watchUrl],
  ];
  const page: PageHead = {
    title: videoPageTitle(title, site.name),
    description: shorten(description),
    canonical: watchUrl,
    ...(playerPoster ? { preloadImage: playerPoster } : {}),
    ...(image ? { image: await shareImage(context, image, stored, `The poster of ${title}`) } : {}),
  };
  const secure = embedUrl.startsWith('https:') ? [['og:video:secure_url', embedUrl] as [string, string]] : [];
  const videoProperties: [string, string][] = [
    ['og:video', embedUrl],
    ...secure,
    ['og:video:type', 'text/html'],
    ['og:video:width', '640'],
    ['og:video:height', '360'],
    ...(video.duration ? [['video:duration', String(video.duration)] as [string, string]] : []),
    ['video:release_date', video.upload_date],
  ];
  return { page, openGraph, video: videoProperties, jsonLd: videoJsonLd(video, { title, thumbnailUrl: image, pageUrl: watchUrl }) };
}

/** A category's or a performer's page: its name, its count and sort, its first card's picture and breadcrumbs. */
const taxonHead = (kind: CreatableTaxonKind) =>
  async function head(context: HeadContext): Promise<PageHead> {
    const { origin, site, queryClient, url } = context;
    const taxa = await queryClient.fetchQuery(taxaQueryOptions(kind));
    const taxon = taxa.data.find((t) => t.id === context.params.id);
    if (!taxon) return missing(PAGE_TITLES.pageNotFound);
    const title = taxonTitle(taxon.name);
    const sort = SORT_LABELS[parseSort(url.searchParams.get('sort'))].toLowerCase();
    const count = `${taxon.video_count} ${taxon.video_count === 1 ? 'video' : 'videos'}`;
    const description = kind === 'categories'
      ? `${count} in ${taxon.name} on ${site.name}, ${sort} first.`
      : `${count} with ${taxon.name} on ${site.name}, ${sort} first.`;
    const indexUrl = `${origin}/${kind}`;
    const pageUrl = `${indexUrl}/${encodeURIComponent(taxon.id)}`;
    // The address the page is rendered for: its sort and page, as the listing's own links write them.
    const canonical = `${pageUrl}${url.search}`;
    const firstCard = await firstCardImage(context, kind === 'categories' ? { category: taxon.id } : { performer: taxon.id });
    return {
      title,
      description: shorten(description),
      canonical,
      ...(filtered(url) ? { noindex: true } : {}),
      openGraph: website(site.name, title, description, canonical),
      ...(firstCard ? { image: firstCard } : {}),
      jsonLd: [
        breadcrumbs([
          [site.name, `${origin}/`],
          [kind === 'categories' ? PAGE_TITLES.categories : PAGE_TITLES.performers, indexUrl],
          [taxon.name, pageUrl],
        ]),
      ],
    };
  };

/**
 * A tag's page, as a category's: the tag is read by the id in the address (GET /api/tags/{id}), and a synonym's
 * address names the tag's own as canonical (the browser moves there: app/routes/browse.tsx).
 */
async function tagHead(context: HeadContext): Promise<PageHead> {
  const { origin, site, queryClient, url } = context;
  let tag;
  try {
    tag = await queryClient.fetchQuery(tagQueryOptions(context.params.id ?? ''));
  } catch (error) {
    // No tag there (404), or an id the API refuses to look up (400): the page says "Page not found".
    if (error instanceof ApiError && (error.statusCode === 404 || error.statusCode === 400)) return missing(PAGE_TITLES.pageNotFound);
    throw error;
  }
  const title = taxonTitle(tag.name);
  const sort = SORT_LABELS[parseSort(url.searchParams.get('sort'))].toLowerCase();
  const count = `${tag.video_count} ${tag.video_count === 1 ? 'video' : 'videos'}`;
  const description = `${count} tagged ${tag.name} on ${site.name}, ${sort} first.`;
  const indexUrl = `${origin}/tags`;
  const pageUrl = `${indexUrl}/${encodeURIComponent(tag.id)}`;
  const canonical = `${pageUrl}${url.search}`;
  const firstCard = await firstCardImage(context, { tag: tag.id });
  return {
    title,
    description: shorten(description),
    canonical,
    ...(filtered(url) ? { noindex: true } : {}),
    openGraph: website(site.name, title, description, canonical),
    ...(firstCard ? { image: firstCard } : {}),
    jsonLd: [breadcrumbs([[site.name, `${origin}/`], [PAGE_TITLES.tags, indexUrl], [tag.name, pageUrl]])],
  };
}

const INDEX_TITLES: Record<TaxonKind, string> = {
  categories: PAGE_TITLES.categories,
  performers: PAGE_TITLES.performers,
  tags: PAGE_TITLES.tags,
};

/** The index of categories, performers or tags: how many there are (with published videos, as the page lists them). */
const indexHead = (kind: TaxonKind) =>
  async function head({ origin, site, queryClient }: HeadContext): Promise<PageHead> {
    const title = INDEX_TITLES[kind];
    const count = (await queryClient.fetchQuery(taxaQueryOptions(kind))).data.filter((t) => t.video_count > 0).length;
    const description = `Every one of the ${count} ${kind} on ${site.name}, with the number of videos of each.`;
    const canonical = `${origin}/${kind}`;
    return { title, description, canonical, openGraph: website(site.name, title, description, canonical) };
  };

/** Home: the sort, and the first card's picture. */
async function homeHead(context: HeadContext): Promise<PageHead> {
  const { origin, site, url } = context;
  const sort = SORT_LABELS[parseSort(url.searchParams.get('sort'))];
  const description = `${sort} videos on ${site.name}: watch them streamed, and browse them by category and performer.`;
  const canonical = `${origin}${url.pathname}${url.search}`;
  const firstCard = await firstCardImage(context, {});
  return {
    title: site.name, description, canonical, ...(filtered(url) ? { noindex: true } : {}),
    openGraph: website(site.name, site.name, description, canonical), ...(firstCard ? { image: firstCard } : {}),
  };
}

/** A listing narrowed by its filters: one of endless variations of the catalogue, which search engines should not index. */
const filtered = (url: URL) => hasListingFilters(parseListingFilters((name) => url.searchParams.get(name)));

/** Search: the words searched for; never indexed. */
function searchHead({ url }: HeadContext): PageHead {
  const q = (url.searchParams.get('q') ?? '').trim();
  return { title: q ? searchTitle(q) : PAGE_TITLES.search, noindex: true };
}

/**
 * A listing's share picture: the image of its first card, as the page shows it (the same sort, page and filter:
 * the listing's own read); none for an empty page or one the API refuses (the site's own picture then).
 */
async function firstCardImage({ origin, site, queryClient, url, imageSize }: HeadContext, filter: { category?: string; performer?: string; tag?: string }): Promise<ShareImage | null> {
  const sort = parseSort(url.searchParams.get('sort'));
  const page = parsePage(url.searchParams.get('page'));
  let card;
  try {
    // The listing's own query (its filters and the guest's hidden topics too), which the page's grid then reads
    // from the cache.
    const filters = parseListingFilters((name) => url.searchParams.get(name));
    const params = withHidden({ ...filter, ...filters, sort, page, limit: PAGE_SIZE }, hiddenExcludeOf(queryClient));
    card = (await queryClient.fetchQuery(videosQueryOptions(params))).data[0];
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 400) return null;
    throw error;
  }
  const image = card && absoluteImageUrl(origin, site.imageHost, card.thumbnail);
  return card && image ? shareImage({ imageSize }, image, card.thumbnail, brandTitle(card, site.brand)) : null;
}

/** A share picture of the catalogue's (a poster, a card's thumbnail), with its size when the store holds it. */
async function shareImage({ imageSize }: Pick<HeadContext, 'imageSize'>, url: string, stored: string | null, alt: string): Promise<ShareImage> {
  const size = await imageSize(stored);
  return { url, alt, ...(size ?? {}) };
}

function website(site: string, title: string, description: string | undefined, url: string): [string, string][] {
  return [
    ['og:site_name', site],
    ['og:type', 'website'],
    ['og:title', title],
    ...(description ? [['og:description', shorten(description)] as [string, string]] : []),
    ['og:url', url],
  ];
}

function breadcrumbs(items: [name: string, url: string][]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map(([name, item], i) => ({ '@type': 'ListItem', position: i + 1, name, item })),
  };
}

/**
 * Every page's link preview (issue #30): Open Graph and its Twitter card for the pages that say nothing of their
 * own (search, legal pages, sign-in, indexes, member and admin pages), and the site's picture where the page has
 * none of its own; none for an address with no page (a dead link previews as nothing rather than as the site).
 * The URL is the page's canonical address, else its own as rendered.
 */
function withShareTags(head: PageHead, { origin, site, url }: Omit<HeadContext, 'params'>): PageHead {
  if (head.missing) return head;
  const pageUrl = head.canonical ?? `${origin}${url.pathname}${url.search}`;
  return {
    ...head,
    openGraph: head.openGraph ?? website(site.name, head.title, head.description, pageUrl),
    image: head.image ?? { url: `${origin}${SITE_IMAGE.path}`, alt: `The ${site.name} logo`, width: SITE_IMAGE.width, height: SITE_IMAGE.height },
  };
}

/**
 * An image as the web client resolves it (resolveImageUrl: an absolute URL kept, a path on IMAGE_HOST), made
 * absolute on the site's origin when IMAGE_HOST is empty; null for none or a URL that is not http(s).
 */
export function absoluteImageUrl(origin: string, imageHost: string, pathOrUrl: string | null | undefined): string | null {
  const value = pathOrUrl?.trim();
  if (!value) return null;
  const resolved = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i.test(value) ? value : `${imageHost}${value.startsWith('/') ? value : `/${value}`}`;
  try {
    const absolute = new URL(resolved, `${origin}/`);
    return absolute.protocol === 'http:' || absolute.protocol === 'https:' ? absolute.href : null;
  } catch {
    return null;
  }
}
