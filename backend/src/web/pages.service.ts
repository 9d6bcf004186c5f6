import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { AGE_CONFIRMED_COOKIE, brandTitle, describeVideo, imageCopyOf, isoDuration, PLAYER_POSTER_WIDTH } from '@hunktube/shared';
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { AuthService } from '../auth/auth.service';
import { fromCookie } from '../common/http/session-cookie';
import { toUserDto } from '../auth/user.mapper';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { siteOf, type SiteIdentity } from '../common/http/site-identity';
import { toSiteDto } from '../site/site.controller';
import { TaxonomyService, type TaxonKind } from '../taxonomy/taxonomy.service';
import { ListVideosQuery, MAX_PAGE, type VideoSort } from '../videos/dto/list-videos.query';
import type { VideoDto } from '../videos/dto/video.dto';
import { CatalogueCache, type CatalogueStamp, sweepExpired } from '../videos/catalogue-cache';
import { VideosService } from '../videos/videos.service';
import { type Bootstrap, type PageHead, pageHtml, type ShareImage, shorten } from './page-head';
import { ImageSizes, siteImage } from './share-image';
import { StorageService } from '../media/storage.service';
import { PAGE_RENDERER, WEB_BUILD } from './web.tokens';
import type { PageRenderer, RouteChunks, WebBuild } from './web-build';
import { canonicalPage, listingPage, listingSort } from './page-canonical';
import { RenderPool, RendersBusy, TokenBucket } from './render-pool';
import { NotFoundError } from '../common/errors/domain-errors';

/** A page as the server sends it. */
export interface Page {
  html: string;
  /** `private, no-store` when it carries a member's data, else `no-cache` (revalidated by its ETag). */
  cacheControl: string;
  /** 200, or 503 when its body could not be drawn for the line of renders (the shell then: the browser draws it). */
  status: 200 | 503;
}

export const GUEST_PAGE_CACHE_CONTROL = 'no-cache';
export const MEMBER_PAGE_CACHE_CONTROL = 'private, no-store';

const VIDEO_PAGE = /^\/(video|embed)\/([1-9]\d{0,9})$/;
/**
 * Rendered bodies kept for guests (docs/web-client.md › "Server rendering"): while the catalogue has not changed
 * since, and this long at most, which bounds how old a count a page shows and keeps every signed stream address
 * in a kept page far from its expiry.
 */
export const RENDERED_PAGE_TTL_MS = 10_000;
/** What the kept bodies may take, in bytes (UTF-16: twice their length). */
export const RENDERED_PAGES_MAX_BYTES = 32 * 1024 * 1024;

interface RenderedBody {
  html: string;
  rendered: unknown;
  chunks: RouteChunks;
  /** Signed stream addresses the page plays, preloaded from the head: each master, its first variant and segment. */
  streams: string[];
}

/** A page's body could not be drawn now: the line of renders is full. */
const BUSY = Symbol('busy');

interface KeptBody {
  body: RenderedBody;
  stamp: CatalogueStamp;
}

/**
 * The public pages rendered on the server (docs/web-client.md › "Server rendering"), with the module of the
 * web client that draws each (its style sheets are named in the head, its scripts on the page's first script);
 * every other page is drawn by the browser.
 */
const RENDERED: [RegExp, string[]][] = [
  [/^\/$/, []],
  // Not hls.js: named in the head, its download and evaluation competed with what the page paints and hydrates
  // with (Lighthouse on a throttled phone: total blocking time 300-640 ms against 170-320 without), for a first
  // frame no sooner within this machine's noise (docs/web-client.md › "First frame").
  [/^\/video\/[1-9]\d{0,9}$/, ['src/app/routes/watch.tsx']],
  [/^\/(?:search|categories|performers|categories\/[^/]+|performers\/[^/]+)$/, ['src/app/routes/browse.tsx']],
];
const TAXON_PAGE = /^\/(categories|performers)\/([^/]+)$/;
const WATCH_PAGE = /^\/video\/[1-9]\d{0,9}$/;
const EMBED_PAGE = /^\/embed\//;
/** A signed master playlist's address: its signed prefix (any media host) and its path in the media store. */
const SIGNED_MASTER = /^((?:https?:\/\/[^/]+)?\/s\/[^/]+\/)(videos\/(?:[^/]+\/)+index\.m3u8)$/;
const MAX_VIDEO_ID = 2_147_483_647;
/** A listing's page of cards (frontend/src/features/browse/components/catalogue-listing.tsx, PAGE_SIZE). */
const LISTING_PAGE_SIZE = 24;

/** The web client's sort labels (frontend/src/api/videos/sorts.ts). */
const SORT_LABELS: Record<VideoSort, string> = {
  newest: 'Newest',
  'most-viewed': 'Most viewed',
  'top-rated': 'Top rated',
  trending: 'Trending',
  longest: 'Longest',
};
/** Pages whose title never changes, as the web client sets it. */
const FIXED_TITLES: Record<string, string> = {
  '/terms': 'Terms of service',
  '/2257': '18 U.S.C. 2257 statement',
  '/content-removal': 'Content removal',
  '/login': 'Log in',
  '/register': 'Sign up',
};
/** The web client's routes that search engines are kept out of, as its own `noindex` says (and robots.txt). */
const NOINDEX = /^\/(?:login|register|search|me\/[^/]+|playlists(?:\/[^/]+)?|admin(?:\/.*)?)$/;
/** Every other route of the web client (frontend/src/app/router.tsx); an address outside them is "Page not found". */
const CLIENT_ROUTES = /^\/(?:|search|categories|performers|terms|2257|content-removal)$/;

/**
 * The web client's shell with each public page's head (docs/web-client.md › "Pages' heads from the server"):
 * title, description, canonical URL, Open Graph and Twitter card, the watch page's VideoObject and the taxon
 * pages' BreadcrumbList as JSON-LD, `noindex` where the client sets it, and the bootstrap block saying who is
 * signed in. Video and taxon data come from the catalogue's caches (the same reads as the API's), so a page
 * costs no query once they are warm and an edit shows on the next page served.
 */
@Injectable()
export class PagesService implements OnModuleDestroy {
  private readonly logger = new Logger(PagesService.name);
  /** Guests' rendered bodies by brand, origin, address and gate; never a member's (their pages show their data). */
  private readonly kept = new LRUCache<string, KeptBody>({
    maxSize: RENDERED_PAGES_MAX_BYTES,
    sizeCalculation: (kept, key) => 2 * (key.length + kept.body.html.length) + 4096,
    ttl: RENDERED_PAGE_TTL_MS,
  });
  private readonly stopSweeping = sweepExpired(this.kept);
  /** Renders at once and waiting (docs/security.md › "Renders no one can force"). */
  private readonly renders = new RenderPool();
  /** New search pages drawn on the server, from every visitor together. */
  private readonly searchRenders = new TokenBucket();
  /** Share pictures' sizes, for link previews. */
  private readonly imageSizes: ImageSizes;
  /** Listings' share pictures (their first card's), by brand, origin, filter, sort and page, while the catalogue holds. */
  private readonly listingImages = new LRUCache<string, { image: ShareImage | null; stamp: CatalogueStamp }>({
    max: 10_000,
    ttl: RENDERED_PAGE_TTL_MS,
  });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WEB_BUILD) private readonly build: WebBuild | null,
    @Inject(PAGE_RENDERER) private readonly renderer: PageRenderer | null,
    private readonly videos: VideosService,
    private readonly taxonomy: TaxonomyService,
    private readonly auth: AuthService,
    private readonly catalogue: CatalogueCache,
    private readonly storage: StorageService,
  ) {
    this.imageSizes = new ImageSizes(storage, config.imageHost);
  }

  onModuleDestroy(): void {
    this.stopSweeping();
  }

  /** Pages being drawn and waiting their turn now. */
  get renderLoad(): { running: number; waiting: number } {
    return this.renders.load;
  }

  /** Guests' bodies kept now (by brand, origin, canonical address and gate). */
  get keptPages(): number {
    return this.kept.size;
  }

  get built(): WebBuild | null {
    return this.build;
  }

  async page(req: Request): Promise<Page> {
    if (!this.build) throw new NotFoundError('Not found');
    // The site this host is (docs/decisions.md › "Brands by host"): its brand, name and origin, for the head and the body.
    const site = siteOf(req, this.config);
    const [head, bootstrap] = await Promise.all([this.headFor(req, site).then((h) => withShareTags(h, site, req)), this.bootstrapFor(req, site)]);
    const drawn = head.found ? await this.body(req, site, bootstrap, this.build) : null;
    const body = drawn === BUSY ? null : drawn;
    if (body) {
      head.chunks = body.chunks;
      head.preloadStreams = body.streams;
      bootstrap.rendered = body.rendered;
    }
    // A rendered page loads the app once it shows its first picture; a watch page starts its stream before (docs/web-client.md ›
    // "Server rendering" and "First frame").
    const early = this.build.early;
    if (body && early) {
      const stream = body.streams.length > 0 && WATCH_PAGE.test(pagePath(req));
      head.earlyTags = early.tags((head.chunks?.scripts ?? []).filter((script) => !early.preloaded.has(script)), stream);
      if (head.chunks) head.chunks = { ...head.chunks, scripts: [] };
    }
    return {
      html: pageHtml(body && early ? early.shell : this.build.shell, head, bootstrap, body?.html),
      cacheControl: bootstrap.user ? MEMBER_PAGE_CACHE_CONTROL : GUEST_PAGE_CACHE_CONTROL,
      status: drawn === BUSY ? 503 : 200,
    };
  }

  /**
   * The page's body rendered by the web client's own components (frontend/src/entry-server.tsx), for the public
   * pages that have one; null for the others, and where it could not be rendered (the browser then draws it).
   * Its reads go to this very process, with the visitor's cookie or token: a member's page shows their data.
   */
  private async body(req: Request, site: SiteIdentity, bootstrap: Bootstrap, build: WebBuild): Promise<RenderedBody | typeof BUSY | null> {
    const route = RENDERED.find(([pattern]) => pattern.test(pagePath(req)));
    // Without the visitor's answer known (the database is down), the page is the browser's.
    if (!this.renderer || !route || bootstrap.user === undefined) return null;
    const { origin } = site;
    const guest = bootstrap.user === null;
    // Drawn for, and kept under, the page's canonical address: what no component reads makes no new render.
    const url = canonicalPage(req.path, req.query as Record<string, unknown>);
    const key = `${site.brand} ${origin}${url} ${bootstrap.ageConfirmed === true}`;
    if (guest) {
      const kept = this.kept.get(key);
      if (kept && this.catalogue.isCurrent(kept.stamp)) return kept.body;
    }
    // A search nobody asked for lately is drawn while the budget lasts, else by the browser.
    if (url.startsWith('/search?') && !this.searchRenders.take()) return null;
    const stamp = guest ? this.catalogue.stamp() : null;
    const headers: Record<string, string> = {};
    // A guest's reads carry nothing of theirs: the body is the same for every guest, and may be kept.
    if (!guest && req.headers.cookie) headers.cookie = req.headers.cookie;
    if (!guest && req.headers.authorization) headers.authorization = req.headers.authorization;
    try {
      const result = await this.renders.run(() =>
        (this.renderer as PageRenderer).render({
          url,
          origin,
          api: `http://${hostOf(req.socket.localAddress)}:${req.socket.localPort}`,
          headers,
          site: bootstrap.site,
          user: bootstrap.user,
          ageConfirmed: bootstrap.ageConfirmed === true,
        }),
      );
      if (!result) return null;
      const body = { ...result, streams: await this.withStreamStarts(result.streams), chunks: build.chunks(route[1]) };
      if (stamp && this.catalogue.isCurrent(stamp)) this.kept.set(key, { body, stamp });
      return body;
    } catch (error) {
      if (error instanceof RendersBusy) return BUSY;
      this.logger.warn(`The page ${req.path} was not rendered: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  /**
   * Each signed master playlist, followed by where hls.js starts it when the media store has them (docs/web-client.md ›
   * "First frame"): the variant it starts with and that variant's first segment. The head preloads them
   * all, so that hls.js finds each answer on its way instead of a round trip each. The signed link covers the
   * master's folder: their addresses are the master's with their names. Always the start of the stream, whatever
   * `?t=` says: a page's HTML does not depend on it, so no one can make a new page of it (docs/security.md ›
   * "Renders no one can force"); a player started at `?t=`, or at a guest's resume point kept in their browser,
   * asks for its own segment (one round trip more) and leaves the first one unused.
   */
  private async withStreamStarts(streams: string[]): Promise<string[]> {
    const all = await Promise.all(
      streams.map(async (stream) => {
        const signed = SIGNED_MASTER.exec(stream);
        const start = signed ? await this.storage.streamStart(signed[2], 0) : null;
        if (!signed || !start) return [stream];
        return [stream, `${signed[1]}${start.variant}`, ...(start.segment ? [`${signed[1]}${start.segment}`] : [])];
      }),
    );
    return all.flat();
  }

  /**
   * The site's settings (as `GET /api/site`) and who is signed in (as `GET /api/auth/me`): the member, null for a
   * guest, left out when the database could not say.
   */
  private async bootstrapFor(req: Request, identity: SiteIdentity): Promise<Bootstrap> {
    const site = toSiteDto(this.config, identity);
    const ageConfirmed = (req.cookies as Record<string, unknown> | undefined)?.[AGE_CONFIRMED_COOKIE] === 'true';
    // The embeddable player is framed by other sites: it is a guest's page, whoever is signed in (issue #29), so
    // its HTML never names the member.
    if (EMBED_PAGE.test(pagePath(req))) return { site, user: null, ageConfirmed };
    const token = bearerOf(req) ?? fromCookie(req, this.config);
    if (!token) return { site, user: null, ageConfirmed };
    try {
      const user = await this.auth.userOfToken(token);
      return { site, user: user && toUserDto(user), ageConfirmed };
    } catch {
      // The database is down: the client asks GET /api/auth/me itself, as it did before the bootstrap block.
      return { site, ageConfirmed };
    }
  }

  private async headFor(req: Request, identity: SiteIdentity): Promise<PageHead> {
    const path = pagePath(req);
    const query = req.query as Record<string, unknown>;
    const site = identity.name;
    try {
      const video = VIDEO_PAGE.exec(path);
      if (video && Number(video[2]) <= MAX_VIDEO_ID) return found(await this.videoHead(identity, Number(video[2]), video[1] === 'embed'));
      const taxon = TAXON_PAGE.exec(path);
      if (taxon) return found(await this.taxonHead(identity, taxon[1] as TaxonKind, taxon[2], query));
      if (path === '/') return found(await this.homeHead(identity, query));
      if (path === '/categories' || path === '/performers') return found(await this.indexHead(identity, path.slice(1) as TaxonKind));
      if (path === '/search') {
        const q = typeof query.q === 'string' ? query.q.trim() : '';
        return found({ title: q ? `${q} – search` : 'Search', noindex: true });
      }
    } catch (error) {
      if (error instanceof NotFoundError) return notFound(isVideoPath(path) ? 'Video not found' : 'Page not found');
      // The catalogue could not be read (the database is down): the site's own head, as the client starts with.
      return { title: site };
    }
    // The embed route takes any id and says "Video not found" for one that is not a video's.
    if (/^\/embed\/[^/]+$/.test(path)) return notFound('Video not found');
    if (FIXED_TITLES[path]) return { title: FIXED_TITLES[path], noindex: NOINDEX.test(path) };
    if (NOINDEX.test(path)) return { title: site, noindex: true };
    if (CLIENT_ROUTES.test(path)) return { title: site };
    return notFound('Page not found');
  }

  private async videoHead({ origin, brand, name: site }: SiteIdentity, id: number, embed: boolean): Promise<PageHead> {
    const video = await this.videos.findOne(id);
    const title = brandTitle(video, brand);
    const watchUrl = `${origin}/video/${id}`;
    const embedUrl = `${origin}/embed/${id}`;
    const description = describeVideo(
      title,
      video.performers.map((p) => p.name),
      video.categories.map((c) => c.name),
    );
    // Crawlers and link previews get the original (JPEG where the ingest made it); the player shows the poster's
    // WebP copy, which the head starts loading before the app boots.
    const image = imageUrl(origin, this.config.imageHost, video.poster ?? video.thumbnail);
    const playerPoster = imageUrl(origin, this.config.imageHost, imageCopyOf(video.poster, this.config.imageHost, PLAYER_POSTER_WIDTH));
    const openGraph: [string, string][] = [
      ['og:site_name', site],
      ['og:type', 'video.other'],
      ['og:title', title],
      ['og:description', shorten(description)],
      ['og:url', watchUrl],
    ];
    const head: PageHead = {
      title: `${title} - ${site}`,
      description: shorten(description),
      canonical: watchUrl,
      ...(playerPoster ? { preloadImage: playerPoster } : {}),
      ...(image ? { image: await this.shareImage(image, video.poster ?? video.thumbnail, `The poster of ${title}`) } : {}),
    };
    // The embed is shared too (a framed player's page): its preview is the watch page's, without the player.
    if (embed) return { ...head, openGraph };
    return {
      ...head,
      openGraph: [
        ...openGraph,
        ['og:video', embedUrl],
        ...(embedUrl.startsWith('https:') ? [['og:video:secure_url', embedUrl] as [string, string]] : []),
        ['og:video:type', 'text/html'],
        ['og:video:width', '640'],
        ['og:video:height', '360'],
        ...(video.duration ? [['video:duration', String(video.duration)] as [string, string]] : []),
        ['video:release_date', video.upload_date],
      ],
      jsonLd: [videoObject(video, { title, description, image, watchUrl, embedUrl })],
    };
  }

  private async taxonHead(identity: SiteIdentity, kind: TaxonKind, rawId: string, query: Record<string, unknown>): Promise<PageHead> {
    const { origin, name: site } = identity;
    const id = decodeSegment(rawId);
    const taxon = (await this.taxonomy.list(kind)).find((t) => t.id === id);
    if (!taxon) throw new NotFoundError('Not found');
    const title = `${taxon.name} videos`;
    const sort = listingSort(query);
    const count = `${taxon.video_count} ${taxon.video_count === 1 ? 'video' : 'videos'}`;
    const description = kind === 'categories'
      ? `${count} in ${taxon.name} on ${site}, ${SORT_LABELS[sort].toLowerCase()} first.`
      : `${count} with ${taxon.name} on ${site}, ${SORT_LABELS[sort].toLowerCase()} first.`;
    const indexUrl = `${origin}/${kind}`;
    const pageUrl = `${indexUrl}/${encodeURIComponent(taxon.id)}`;
    // The address the page is rendered for (canonicalPage): its sort and page, as the listing's own links write them.
    const canonical = origin + canonicalPage(`/${kind}/${encodeURIComponent(taxon.id)}`, query);
    const firstCard = await this.firstCardImage(identity, { [kind === 'categories' ? 'category' : 'performer']: taxon.id }, query);
    return {
      title,
      description: shorten(description),
      canonical,
      openGraph: website(site, title, description, canonical),
      ...(firstCard ? { image: firstCard } : {}),
      jsonLd: [breadcrumbs([
        [site, `${origin}/`],
        [kind === 'categories' ? 'Categories' : 'Performers', indexUrl],
        [taxon.name, pageUrl],
      ])],
    };
  }

  private async indexHead({ origin, name: site }: SiteIdentity, kind: TaxonKind): Promise<PageHead> {
    const title = kind === 'categories' ? 'Categories' : 'Performers';
    const count = (await this.taxonomy.list(kind)).filter((t) => t.video_count > 0).length;
    const description = `Every one of the ${count} ${kind} on ${site}, with the number of videos of each.`;
    const canonical = `${origin}/${kind}`;
    return { title, description, canonical, openGraph: website(site, title, description, canonical) };
  }

  private async homeHead(identity: SiteIdentity, query: Record<string, unknown>): Promise<PageHead> {
    const { origin, name: site } = identity;
    const sort = listingSort(query);
    const description = `${SORT_LABELS[sort]} videos on ${site}: watch them streamed, and browse them by category and performer.`;
    const canonical = origin + canonicalPage('/', query);
    const firstCard = await this.firstCardImage(identity, {}, query);
    return { title: site, description, canonical, openGraph: website(site, site, description, canonical), ...(firstCard ? { image: firstCard } : {}) };
  }

  /**
   * A listing's share picture: the image of its first card, as the page shows it (the same sort, page and filter,
   * from the catalogue's caches); none for an empty page (the site's own picture then).
   */
  private async firstCardImage(
    { origin, brand }: SiteIdentity,
    filter: { category?: string; performer?: string },
    query: Record<string, unknown>,
  ): Promise<ShareImage | null> {
    const page = listingPage(query);
    if (page > MAX_PAGE) return null;
    const sort = listingSort(query);
    // Kept as the rendered bodies are: a flood of addresses of one listing reads its page once.
    const key = `${brand} ${origin} ${filter.category ?? ''} ${filter.performer ?? ''} ${sort} ${page}`;
    const kept = this.listingImages.get(key);
    if (kept && this.catalogue.isCurrent(kept.stamp)) return kept.image;
    const stamp = this.catalogue.stamp();
    const listing = await this.videos.list(Object.assign(new ListVideosQuery(), { ...filter, sort, page, limit: LISTING_PAGE_SIZE }));
    const card = listing.data[0];
    const url = card && imageUrl(origin, this.config.imageHost, card.thumbnail);
    const image = card && url ? await this.shareImage(url, card.thumbnail, brandTitle(card, brand)) : null;
    if (stamp && this.catalogue.isCurrent(stamp)) this.listingImages.set(key, { image, stamp });
    return image;
  }

  /** A share picture of the catalogue's (a poster, a card's thumbnail), with its size when the store holds it. */
  private async shareImage(url: string, stored: string | null, alt: string): Promise<ShareImage> {
    const size = await this.imageSizes.of(stored);
    return { url, alt, ...(size ?? {}) };
  }
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

/**
 * Every page's link preview (issue #30): Open Graph and its Twitter card for the pages that say nothing of their
 * own (search, legal pages, sign-in, indexes, member and admin pages), and the site's picture where the page has
 * none of its own; none for an address with no page (a dead link previews as nothing rather than as the site). The URL is the page's canonical address, else its own as rendered (canonicalPage).
 */
function withShareTags(head: PageHead, { origin, name }: SiteIdentity, req: Request): PageHead {
  if (head.missing) return head;
  const url = head.canonical ?? origin + canonicalPage(pagePath(req), req.query as Record<string, unknown>);
  return {
    ...head,
    openGraph: head.openGraph ?? website(name, head.title, head.description, url),
    image: head.image ?? siteImage(origin, name),
  };
}

function videoObject(
  video: VideoDto,
  page: { title: string; description: string; image: string | null; watchUrl: string; embedUrl: string },
): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoObject',
    name: page.title,
    description: page.description,
    ...(page.image ? { thumbnailUrl: [page.image] } : {}),
    uploadDate: video.upload_date,
    ...(video.duration !== null ? { duration: isoDuration(video.duration) } : {}),
    url: page.watchUrl,
    embedUrl: page.embedUrl,
    interactionStatistic: {
      '@type': 'InteractionCounter',
      interactionType: { '@type': 'WatchAction' },
      userInteractionCount: video.views,
    },
    isFamilyFriendly: false,
  };
}

function breadcrumbs(items: [name: string, url: string][]): object {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map(([name, item], i) => ({ '@type': 'ListItem', position: i + 1, name, item })),
  };
}

/** The page's path without a trailing slash (but `/`). */
function pagePath(req: Request): string {
  return req.path.length > 1 ? req.path.replace(/\/$/, '') : req.path;
}

/** An address as a URL's host: IPv6 in brackets (the API process may listen on either). */
function hostOf(address: string | undefined): string {
  if (!address) return '127.0.0.1';
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4) return v4[1];
  return address.includes(':') ? `[${address}]` : address;
}

/** A page of the catalogue that exists: the server renders its body (when its route is one it renders). */
function found(head: PageHead): PageHead {
  return { ...head, found: true };
}

function notFound(title: string): PageHead {
  return { title, noindex: true, missing: true };
}

function isVideoPath(path: string): boolean {
  return /^\/(?:video|embed)\//.test(path);
}

/**
 * An image as the web client resolves it (resolveImageUrl: an absolute URL kept, a path on IMAGE_HOST), made
 * absolute on the site's origin when IMAGE_HOST is empty; null for none or a URL that is not http(s).
 */
export function imageUrl(origin: string, imageHost: string, pathOrUrl: string | null | undefined): string | null {
  const value = pathOrUrl?.trim();
  if (!value) return null;
  const resolved = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i.test(value) ? value : `${imageHost}${value.startsWith('/') ? value : `/${value}`}`;
  try {
    const url = new URL(resolved, `${origin}/`);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function bearerOf(req: Request): string | null {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || null : null;
}
