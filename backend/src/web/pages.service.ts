import type { Counter } from 'prom-client';
import { Metrics } from '../common/metrics/metrics';
import { Inject, Injectable, Logger, type OnModuleDestroy, Optional } from '@nestjs/common';
import { AGE_CONFIRMED_COOKIE } from '@hunktube/shared';
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { AuthService } from '../auth/auth.service';
import { fromCookie } from '../common/http/session-cookie';
import { formatExclude, HIDDEN_TOPICS_COOKIE, parseExclude } from '@hunktube/shared';
import { toUserDto } from '../auth/user.mapper';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { siteOf, type SiteIdentity } from '../common/http/site-identity';
import { toSiteDto, type SiteDto } from '../site/site.controller';
import { CatalogueCache, type CatalogueStamp, sweepExpired } from '../videos/catalogue-cache';
import { ImageSizes } from './share-image';
import { StorageService } from '../media/storage.service';
import { PAGE_RENDERER, WEB_BUILD } from './web.tokens';
import type { DocumentRequest, PageRenderer, RenderedDocument, WebBuild } from './web-build';
import { canonicalPage } from './page-canonical';
import { RenderPool, RendersBusy, TokenBucket } from './render-pool';
import { NotFoundError } from '../common/errors/domain-errors';

/** A page as the server sends it. */
export interface Page {
  html: string;
  /** `private, no-store` when it carries a member's data, else `no-cache` (revalidated by its ETag). */
  cacheControl: string;
  /** 200, or 503 when its body could not be drawn for the line of renders (its head alone then: the browser draws it). */
  status: 200 | 503;
}

export const GUEST_PAGE_CACHE_CONTROL = 'no-cache';
export const MEMBER_PAGE_CACHE_CONTROL = 'private, no-store';

/**
 * Documents kept for guests (docs/web-client.md › "Server rendering"): while the catalogue has not changed
 * since, and this long at most, which bounds how old a count a page shows and keeps every signed stream address
 * in a kept page far from its expiry.
 */
export const RENDERED_PAGE_TTL_MS = 10_000;
/** What the kept documents may take, in bytes (UTF-16: twice their length). */
export const RENDERED_PAGES_MAX_BYTES = 32 * 1024 * 1024;

/** A signed master playlist's address: its signed prefix (any media host) and its path in the media store. */
const SIGNED_MASTER = /^((?:https?:\/\/[^/]+)?\/s\/[^/]+\/)(videos\/(?:[^/]+\/)+index\.m3u8)$/;
const EMBED_PAGE = /^\/embed\//;

interface KeptPage {
  html: string;
  stamp: CatalogueStamp;
}

/** What the pages service knows of the visitor: the site's settings, who is signed in, their answer to the 18+ gate. */
interface Visitor {
  site: SiteDto;
  /** The member, null for a guest, undefined when the database could not say. */
  user?: unknown;
  ageConfirmed: boolean;
}

/**
 * Every page of the web client as the server sends it (docs/web-client.md › "One author per page"): the web
 * client's render module writes the whole document, head included, from its own route table; this service only
 * hands it what it needs (the canonical address, the site, who is signed in, the build, this process's address
 * for its reads, and what only the media store knows), bounds how many renders run at once, keeps guests'
 * drawn pages while the catalogue holds, and says how the answer may be cached.
 */
@Injectable()
export class PagesService implements OnModuleDestroy {
  private readonly logger = new Logger(PagesService.name);
  /**
   * Guests' documents by brand, origin, address and gate: the drawn pages and the others' heads alone (an embed's
   * reads its video); never a member's (their pages show their data), nor a search the budget left to the browser.
   */
  private readonly kept = new LRUCache<string, KeptPage>({
    maxSize: RENDERED_PAGES_MAX_BYTES,
    sizeCalculation: (kept, key) => 2 * (key.length + kept.html.length) + 4096,
    ttl: RENDERED_PAGE_TTL_MS,
  });
  private readonly stopSweeping = sweepExpired(this.kept);
  /** Renders at once and waiting (docs/security.md › "Renders no one can force"). */
  private readonly renders = new RenderPool();
  /**
   * New pages a visitor can vary at will drawn on the server, from every visitor together: searches, and pages
   * drawn for a guest's hidden topics.
   */
  private readonly searchRenders = new TokenBucket();
  /** Share pictures' sizes, for link previews. */
  private readonly imageSizes: ImageSizes;
  /** What only the media store knows, as every render is handed it. */
  private readonly media: DocumentRequest['media'] = {
    imageSize: (pathOrUrl) => this.imageSizes.of(pathOrUrl),
    streamStarts: (streams) => this.withStreamStarts(streams),
  };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WEB_BUILD) private readonly build: WebBuild | null,
    @Inject(PAGE_RENDERER) private readonly renderer: PageRenderer | null,
    private readonly auth: AuthService,
    private readonly catalogue: CatalogueCache,
    private readonly storage: StorageService,
    @Optional() metrics?: Metrics,
  ) {
    this.imageSizes = new ImageSizes(storage, config.imageHost);
    this.pagesServed = metrics?.counter('rendered_pages_total', "Server-rendered pages for guests: from the kept copy (kept) or drawn anew (drawn)", ['outcome']);
  }

  private readonly pagesServed?: Counter<'outcome'>;

  onModuleDestroy(): void {
    this.stopSweeping();
  }

  /** Pages being drawn and waiting their turn now. */
  get renderLoad(): { running: number; waiting: number } {
    return this.renders.load;
  }

  /** Guests' drawn pages kept now (by brand, origin, canonical address and gate). */
  get keptPages(): number {
    return this.kept.size;
  }

  get built(): WebBuild | null {
    return this.build;
  }

  async page(req: Request): Promise<Page> {
    if (!this.build) throw new NotFoundError('Not found');
    // The site this host is (docs/decisions.md › "Brands by host"): its brand, name and origin.
    const identity = siteOf(req, this.config);
    const visitor = await this.visitorOf(req, identity);
    const cacheControl = visitor.user ? MEMBER_PAGE_CACHE_CONTROL : GUEST_PAGE_CACHE_CONTROL;
    // Without the render module (a build without dist-server/): index.html as built, drawn by the browser.
    if (!this.renderer) return { html: this.build.indexHtml, cacheControl, status: 200 };
    // Written for, and kept under, the page's canonical address: what no component reads makes no new render.
    const url = canonicalPage(req.path, req.query as Record<string, unknown>);
    const guest = visitor.user === null;
    // A guest's hidden topics (their cookie, canonical) are part of what the page is drawn with and kept under.
    const hidden = guest ? guestHiddenTopics(req) : '';
    const key = `${identity.brand} ${identity.origin}${url} ${visitor.ageConfirmed}${hidden ? ` hidden:${hidden}` : ''}`;
    if (guest) {
      const kept = this.kept.get(key);
      const current = kept && this.catalogue.isCurrent(kept.stamp);
      this.pagesServed?.inc({ outcome: current ? 'kept' : 'drawn' });
      if (kept && current) return { html: kept.html, cacheControl, status: 200 };
    }
    const stamp = guest ? this.catalogue.stamp() : null;
    const keep = (document: RenderedDocument) => {
      if (document.complete && stamp && this.catalogue.isCurrent(stamp)) this.kept.set(key, { html: document.html, stamp });
      return document.html;
    };
    const request = { ...this.documentRequest(req, identity, visitor, url), hidden };
    // Without the visitor's answer known (the database is down), the page is the browser's to draw; a search
    // nobody asked for lately is drawn while the budget lasts, else by the browser.
    const drawn = visitor.user !== undefined && this.renderer.drawnOnServer(url);
    if (!drawn || ((url.startsWith('/search?') || hidden !== '') && !this.searchRenders.take())) {
      const document = await this.headOnly(request, req);
      if (!document) return { html: this.build.indexHtml, cacheControl, status: 200 };
      // A page drawn on the server whose body was left to the browser (the search budget) is not kept as it is.
      return { html: drawn ? document.html : keep(document), cacheControl, status: 200 };
    }
    try {
      const document = await this.renders.run(() => (this.renderer as PageRenderer).renderDocument({ ...request, body: true }));
      return { html: document.drawn ? keep(document) : document.html, cacheControl, status: 200 };
    } catch (error) {
      // The line of renders was full: the head alone, for the browser to draw, and a word to crawlers to come back.
      const busy = error instanceof RendersBusy;
      if (!busy) this.logger.warn(`The page ${req.path} was not rendered: ${error instanceof Error ? error.message : String(error)}`);
      const document = await this.headOnly(request, req);
      return { html: document?.html ?? this.build.indexHtml, cacheControl, status: busy ? 503 : 200 };
    }
  }

  /** The page's document without its body (the browser draws it); null if even that could not be written. */
  private async headOnly(request: DocumentRequest, req: Request): Promise<RenderedDocument | null> {
    try {
      return await (this.renderer as PageRenderer).renderDocument({ ...request, body: false });
    } catch (error) {
      this.logger.warn(`The head of ${req.path} was not written: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }

  private documentRequest(req: Request, { origin }: SiteIdentity, visitor: Visitor, url: string): DocumentRequest {
    const headers: Record<string, string> = {};
    // A guest's reads carry nothing of theirs: the page is the same for every guest, and may be kept.
    if (visitor.user && req.headers.cookie) headers.cookie = req.headers.cookie;
    if (visitor.user && req.headers.authorization) headers.authorization = req.headers.authorization;
    return {
      url,
      origin,
      api: `http://${hostOf(req.socket.localAddress)}:${req.socket.localPort}`,
      headers,
      site: visitor.site,
      user: visitor.user,
      ageConfirmed: visitor.ageConfirmed,
      hidden: '',
      body: false,
      build: this.build as WebBuild,
      media: this.media,
    };
  }

  /**
   * Each signed master playlist, followed by where hls.js starts it when the media store has them (docs/web-client.md ›
   * "First frame"): the variant it starts with, that variant's first segment and, when it is sealed, its key
   * (from the API, by the same signed folder; docs/media.md › Encrypted HLS). The head preloads them
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
        const sealed = start.key ? [`${signed[1]}${start.key}`] : [];
        return [stream, `${signed[1]}${start.variant}`, ...(start.segment ? [...sealed, `${signed[1]}${start.segment}`] : [])];
      }),
    );
    return all.flat();
  }

  /**
   * The site's settings (as `GET /api/site`) and who is signed in (as `GET /api/auth/me`): the member, null for a
   * guest, left out when the database could not say.
   */
  private async visitorOf(req: Request, identity: SiteIdentity): Promise<Visitor> {
    const site = toSiteDto(this.config, identity);
    const ageConfirmed = (req.cookies as Record<string, unknown> | undefined)?.[AGE_CONFIRMED_COOKIE] === 'true';
    // The embeddable player is framed by other sites: it is a guest's page, whoever is signed in (issue #29), so
    // its HTML never names the member.
    if (EMBED_PAGE.test(req.path)) return { site, user: null, ageConfirmed };
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
}

/** An address as a URL's host: IPv6 in brackets (the API process may listen on either). */
function hostOf(address: string | undefined): string {
  if (!address) return '127.0.0.1';
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4) return v4[1];
  return address.includes(':') ? `[${address}]` : address;
}

/** A guest's hidden topics from their cookie, as `exclude`'s canonical value; '' for none or a value that is not one. */
export function guestHiddenTopics(req: Request): string {
  const raw = (req.cookies as Record<string, unknown> | undefined)?.[HIDDEN_TOPICS_COOKIE];
  if (typeof raw !== 'string' || raw === '') return '';
  const topics = parseExclude(raw);
  return topics ? formatExclude(topics) : '';
}

function bearerOf(req: Request): string | null {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || null : null;
}
