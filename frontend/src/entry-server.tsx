/**
 * Every page's document as the server sends it (docs/web-client.md › "One author per page", "Server
 * rendering"): built by `vite build --ssr` into dist-server/ and called by the API (backend/src/web/pages.service.ts),
 * which hands it the visitor, the site, the build and two lookups of the media store, and sends what it returns.
 * The head comes from the route table (`handle.head`, app/router.tsx); home, the category and performer indexes
 * and pages, search and the watch page are drawn too, by the same routes and components as the browser's: their
 * reads go to the API process that renders them, and what they read travels in the page (the bootstrap block) so
 * that the browser hydrates the HTML instead of drawing it again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { PassThrough } from 'node:stream';
import { dehydrate, hashKey, type Query, type QueryClient, skipToken } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, type HydrationState, type RouteObject, StaticRouterProvider } from 'react-router';
import { type DocumentBuild, documentHtml, earlyTags, headHtml, htmlText, type PageLoads, shellTemplate } from './app/head/document';
import { matchesOf, pageHead } from './app/head/page-heads';
import type { RouteHandle } from './app/head/route-handle';
import { AppProvider } from './app/provider';
import { createRoutes, loadWatchRoute } from './app/router';
import { prerollAddress } from './features/ads/early-preroll';
import { AgeConfirmedOnServer } from './features/age-gate/components/age-gate';
import { seedSession } from './features/auth/api/session-cache';
import { setServerFetch } from './lib/api/client';
import type { Site, User, Video } from './lib/api/types';
import type { Bootstrap, Rendered } from './lib/bootstrap';
import { OriginContext } from './lib/origin';
import { GUEST_HIDDEN_KEY, seedGuestHidden } from './lib/hidden-topics';
import { createQueryClient, queryDefaults } from './lib/react-query';
import { USER_QUERY_KEY } from './lib/session';
import { mediaUrl, siteQueryOptions } from './lib/site';
import { videoKeys } from './api/videos/keys';
import { secureUrlQueryOptions } from './features/watch/api/get-secure-url';

export interface RenderRequest {
  /** The page's path and query. */
  url: string;
  /** The site's origin as the visitor asked for it (links, canonical addresses). */
  origin: string;
  /** Where the page's reads go: the API process rendering it (`http://127.0.0.1:{port}`). */
  api: string;
  /** Headers passed on with each read: the visitor's cookie or bearer token, so that a member's reads are theirs. */
  headers: Record<string, string>;
  site: Site;
  /** The member, null for a guest, undefined when the server could not tell (the page then waits for the client). */
  user: User | null | undefined;
  ageConfirmed: boolean;
  /**
   * A guest's hidden topics (their `hidden_topics` cookie) as `exclude`'s canonical value, '' for none and for a
   * member (the API applies theirs): the page's listings, related row and cards read without them, as the
   * browser, reading the same cookie, will (lib/hidden-topics.ts).
   */
  hidden: string;
}

export interface RenderResult {
  /** What goes inside `#root`. */
  html: string;
  /** The signed stream addresses the page plays (the watch page's), for the head to have fetched at once. */
  streams: string[];
  /** For the bootstrap block: the reads made and the router's data. */
  rendered: Rendered;
}

/** Reads whose answers the render is still waiting for are given up after this, and left to the browser. */
const READ_TIMEOUT_MS = 5_000;
/** A read can depend on another's answer (the watch page's stream address on its video): rounds of reads. */
const MAX_ROUNDS = 4;

const page = new AsyncLocalStorage<RenderRequest>();

// The app's API client, on the server: GETs only (no page read changes anything), to the rendering process.
setServerFetch((request) => {
  const current = page.getStore();
  if (!current) return Promise.reject(new Error('An API read outside a page render'));
  if (request.method !== 'GET') return Promise.reject(new Error(`${request.method} is not a read`));
  const url = new URL(request.url);
  return fetch(`${current.api}${url.pathname}${url.search}`, {
    headers: { accept: 'application/json', ...current.headers },
    signal: AbortSignal.timeout(READ_TIMEOUT_MS),
  });
});

/** What the API hands the render of a page's document. */
export interface DocumentRequest extends RenderRequest {
  /**
   * Draw the body of a page whose route is drawn on the server; false for the head alone (the line of renders
   * is full, or who is signed in is not known: the browser draws the page).
   */
  body: boolean;
  build: DocumentBuild;
  media: MediaLookups;
}

/** What only the media store knows (backend/src/media). */
export interface MediaLookups {
  /** A stored picture's size in pixels, for link previews; null where unknown. */
  imageSize: (pathOrUrl: string | null) => Promise<{ width: number; height: number } | null>;
  /** Each signed master playlist followed by where hls.js starts it (its first variant and segment), when stored. */
  streamStarts: (streams: string[]) => Promise<string[]>;
}

export interface RenderedDocument {
  html: string;
  /** Whether its body was drawn (else the browser draws it). */
  drawn: boolean;
  /** False when its head could not read what it needed (the catalogue was down): not a page to keep. */
  complete: boolean;
}

let routeTable: RouteObject[] | undefined;

/** The route table for its shape (which route, which head, drawn or not): no loader runs, one copy for every request. */
function theRouteTable(): RouteObject[] {
  routeTable ??= createRoutes(createQueryClient());
  return routeTable;
}

/** Whether the page at this address is drawn on the server (its route says so), not only its head. */
export function drawnOnServer(url: string): boolean {
  const matches = matchesOf(theRouteTable(), new URL(url, 'http://localhost').pathname);
  return matches.some((match) => (match.route.handle as RouteHandle | undefined)?.draws !== undefined);
}

/**
 * The whole document of the page at `request.url`: index.html with the page's head (from the route table), its
 * bootstrap block and, where its route is drawn on the server and it exists, its body.
 */
export function renderDocument(request: DocumentRequest): Promise<RenderedDocument> {
  return page.run(request, async () => {
    const queryClient = renderQueryClient(request);
    const url = new URL(request.url, request.origin);
    const { head, found, draws, failed = false } = await pageHead(theRouteTable(), { url, site: request.site, origin: request.origin, queryClient, imageSize: request.media.imageSize });
    const bootstrap: Bootstrap = {
      site: request.site,
      ...(request.user !== undefined ? { user: request.user } : {}),
      ageConfirmed: request.ageConfirmed,
    };
    // The body's routes start their reads with this render's query client (their loaders), where the head's did.
    const body = request.body && found && draws ? await renderPage(request, queryClient, createRoutes(queryClient)) : null;
    const { build } = request;
    if (!body || !draws) return { html: documentHtml(shellTemplate(build.indexHtml), headHtml(head), bootstrap), drawn: false, complete: !failed };
    bootstrap.rendered = body.rendered;
    const chunks = build.chunks(draws);
    const streams = await request.media.streamStarts(body.streams);
    // A drawn page loads the app once it shows its first picture; a watch page starts its stream before
    // (docs/web-client.md › "Server rendering" and "First frame").
    const early = build.early;
    const watchPage = WATCH_PAGE.exec(url.pathname);
    const loads: PageLoads = {
      styles: chunks.styles,
      streams,
      // The pre-roll's zones, which the first script asks for with the stream (features/ads/early-preroll.ts);
      // not behind the 18+ gate, before which no ad is asked for.
      reads: early && watchPage && streams.length > 0 && request.ageConfirmed ? [prerollAddress(Number(watchPage[1]))] : [],
      early: early
        ? earlyTags(early, chunks.scripts.filter((script) => !early.imports.stream.includes(script)), streams.length > 0 && watchPage !== null)
        : chunks.scripts.map((script) => `<link rel="modulepreload" crossorigin href="${htmlText(script)}">`).join('\n    '),
    };
    return { html: documentHtml(shellTemplate(early ? early.indexHtml : build.indexHtml), headHtml(head, loads), bootstrap, body.html), drawn: true, complete: !failed };
  });
}

const WATCH_PAGE = /^\/video\/([1-9]\d{0,9})$/;

/** A render's own query client: no retries, the site, the session and a guest's hidden topics as the API gave them. */
function renderQueryClient(request: RenderRequest): QueryClient {
  const queryClient = createQueryClient({ queries: { ...queryDefaults.queries, retry: false } });
  queryClient.setQueryData(siteQueryOptions().queryKey, request.site);
  seedSession(queryClient, { user: request.user });
  seedGuestHidden(queryClient, request.hidden);
  return queryClient;
}

/**
 * The page's HTML and what the browser needs to hydrate it; null where the server does not render (a redirect,
 * an error the router caught), and the browser draws the page as before.
 */
export function render(request: RenderRequest): Promise<RenderResult | null> {
  return page.run(request, () => {
    const queryClient = renderQueryClient(request);
    return renderPage(request, queryClient, createRoutes(queryClient));
  });
}

async function renderPage(request: RenderRequest, queryClient: QueryClient, routes: RouteObject[]): Promise<RenderResult | null> {
  const handler = createStaticHandler(routes);
  // The watch page's component is loaded on demand in the browser; here it is loaded before the first render.
  const [context] = await Promise.all([handler.query(new Request(new URL(request.url, request.origin))), loadWatchRoute()]);
  if (context instanceof Response || context.errors) return null;
  const router = createStaticRouter(handler.dataRoutes, context);

  const app = (
    <OriginContext.Provider value={request.origin}>
      <AgeConfirmedOnServer.Provider value={request.ageConfirmed}>
        <AppProvider queryClient={queryClient}>
          <StaticRouterProvider router={router} context={context} hydrate={false} />
        </AppProvider>
      </AgeConfirmedOnServer.Provider>
    </OriginContext.Provider>
  );

  // Render, read what the components asked for, again, until they ask for nothing more: the last render is the
  // page, unless reads were made after it.
  let html: string | null = null;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    await settled(queryClient);
    html = await renderToText(app);
    const wanted = queryClient.getQueryCache().getAll().filter(isWanted);
    if (wanted.length === 0) break;
    await Promise.allSettled(wanted.map((query) => query.fetch()));
    html = null;
  }
  await settled(queryClient);
  // A read that failed is the browser's to make again (and show): the page is drawn as still loading it.
  if (queryClient.getQueryCache().findAll({ predicate: (query) => query.state.status === 'error' }).length > 0) {
    queryClient.removeQueries({ predicate: (query) => query.state.status === 'error' });
    html = null;
  }
  html = withoutHoisted(html ?? (await renderToText(app)));
  const hydration: HydrationState = { loaderData: context.loaderData, actionData: context.actionData };
  // The site and the session travel in the bootstrap block already; the browser reads the guest's hidden topics
  // from their cookie, as the server did.
  const seeded = new Set([hashKey(siteQueryOptions().queryKey), hashKey(USER_QUERY_KEY), hashKey(GUEST_HIDDEN_KEY)]);
  const queries = dehydrate(queryClient, {
    shouldDehydrateQuery: (query) => query.state.status === 'success' && !seeded.has(query.queryHash),
  });
  return { html, streams: streamsOf(queryClient, request.site), rendered: { queries, router: hydration } };
}

/** Each video read's signed stream address, as its player will ask for it (VideoPlayer). */
function streamsOf(queryClient: QueryClient, site: Site): string[] {
  return queryClient
    .getQueriesData<Video>({ queryKey: videoKeys.details })
    .flatMap(([, video]) => {
      const secure = video?.stream_path ? queryClient.getQueryData(secureUrlQueryOptions(video.stream_path).queryKey) : undefined;
      return video && secure ? [mediaUrl(secure.secureUrl, video.cdn, site.mediaHosts)] : [];
    });
}

/** A query a component asked for that has not been read: not disabled, not waiting on another read. */
function isWanted(query: Query): boolean {
  if (query.state.status !== 'pending' || query.state.fetchStatus !== 'idle') return false;
  const { enabled, queryFn } = query.options as { enabled?: boolean | ((q: Query) => boolean); queryFn?: unknown };
  if (queryFn === undefined || queryFn === skipToken) return false;
  return typeof enabled === 'function' ? enabled(query) : enabled !== false;
}

/** Waits for the reads in flight (a loader's prefetch, a round's reads). */
async function settled(queryClient: QueryClient): Promise<void> {
  for (let i = 0; i < 10 && queryClient.isFetching() > 0; i++) {
    const fetching = queryClient.getQueryCache().findAll({ fetchStatus: 'fetching' });
    await Promise.allSettled(fetching.map((query) => query.promise));
  }
}

/**
 * The body without the `<title>`, `<meta>` and `<link>` elements React writes at its start (rendered outside a
 * whole document, it cannot put them in the head): the document's head is written from the route table
 * (renderDocument), and in the browser React puts the components' own in the head as it does on any page.
 */
export function withoutHoisted(html: string): string {
  return html.replace(/^(?:<title>[^<]*<\/title>|<(?:meta|link)\b[^>]*>)+/, '');
}

/** React's streaming renderer, once everything (the lazily loaded watch page too) is ready, as one string. */
function renderToText(app: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => chunks.push(chunk));
    sink.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    const stream = renderToPipeableStream(app, {
      // Never outline a large Suspense boundary (React's default past 12,800 bytes, which a watch page with its
      // related grid passes): an outlined boundary is revealed by an inline script, which the CSP refuses, and the
      // page is sent whole anyway.
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError: (error) => {
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    });
    setTimeout(() => stream.abort(new Error('The page took too long to render')), READ_TIMEOUT_MS).unref();
  });
}
