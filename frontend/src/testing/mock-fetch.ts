import { vi } from 'vitest';

/** A request as the handlers and the assertions see it: the parts of a RequestInit that the client sets. */
export interface SentInit {
  method: string;
  headers: Headers;
  credentials: RequestCredentials;
  /** How the request uses the browser's HTTP cache. */
  cache: RequestCache;
  /** The JSON text, a FormData for a multipart body, or undefined when there was no body. */
  body: string | FormData | undefined;
  signal: AbortSignal;
}

type Handler = (url: URL, init: SentInit | undefined) => Response | unknown;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** This site's URLs are recorded as their path, as the client would have written them with a relative base. */
function recordedUrl(url: string): string {
  const parsed = new URL(url, 'http://localhost');
  return parsed.origin === globalThis.location?.origin ? `${parsed.pathname}${parsed.search}` : url;
}

const sentBody = new WeakMap<Request, unknown>();

/**
 * Makes every Request remember the body it was built with. The API client builds Request objects; in jsdom a
 * FormData and its Files are jsdom's, which Node's Request cannot read back (a File loses its name and bytes),
 * so the mock hands handlers the body as the client wrote it. Installed by setup.ts, before the client loads.
 */
export function recordRequestBodies() {
  const NodeRequest = globalThis.Request;
  globalThis.Request = class extends NodeRequest {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(input, init);
      if (init?.body !== undefined && init.body !== null) sentBody.set(this, init.body);
    }
  };
}

async function readBody(request: Request): Promise<string | FormData | undefined> {
  if (sentBody.has(request)) return sentBody.get(request) as string | FormData;
  if (request.body === null) return undefined;
  const text = await request.clone().text();
  return text === '' ? undefined : text;
}

/**
 * Replaces `fetch` with routes keyed by pathname. A handler returns a Response, or a value sent as a 200
 * JSON body. Unknown paths answer 404 in the contract's error shape. Vitest restores `fetch` after each test.
 *
 * The API client calls `fetch(request)` with a Request object; the mock records each call as `(url, init)`
 * (the URL as a string, its body already read) so that handlers and assertions read the method, headers and
 * body directly.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: string, init?: SentInit) => {
    const url = new URL(input, 'http://localhost');
    const handler = routes[url.pathname];
    if (!handler) return json({ error: 'Not found', statusCode: 404 }, 404);
    const result = await handler(url, init);
    return result instanceof Response ? result : json(result);
  });
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    if (!(input instanceof Request)) return fetchMock(String(input), init as SentInit | undefined);
    const sent: SentInit = {
      method: input.method,
      headers: input.headers,
      credentials: input.credentials,
      cache: input.cache,
      body: await readBody(input),
      signal: input.signal,
    };
    return fetchMock(recordedUrl(input.url), sent);
  });
  return fetchMock;
}

/** The URLs that the mock was called with, for one pathname. */
export function requestedUrls(fetchMock: ReturnType<typeof mockFetch>, pathname: string): URL[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(input, 'http://localhost'))
    .filter((url) => url.pathname === pathname);
}

/** The JSON bodies that the mock was sent (a FormData as it is), for one pathname. */
export function sentBodies(fetchMock: ReturnType<typeof mockFetch>, pathname: string): unknown[] {
  return callsFor(fetchMock, pathname).map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body));
}

/** The values of one request header that the mock was sent (null where it was not), for one pathname. */
export function sentHeaders(fetchMock: ReturnType<typeof mockFetch>, pathname: string, name: string): (string | null)[] {
  return callsFor(fetchMock, pathname).map(([, init]) => init?.headers.get(name) ?? null);
}

function callsFor(fetchMock: ReturnType<typeof mockFetch>, pathname: string) {
  return fetchMock.mock.calls.filter(([input]) => new URL(input, 'http://localhost').pathname === pathname);
}

/** An answer with no body (204). */
export const noContent = () => new Response(null, { status: 204 });
