import { vi } from 'vitest';

type Handler = (url: URL, init: RequestInit | undefined) => Response | unknown;

export const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * Replaces `fetch` with routes keyed by pathname. A handler returns a Response, or a value sent as a 200
 * JSON body. Unknown paths answer 404 in the contract's error shape. Vitest restores `fetch` after each test.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const raw = input instanceof Request ? input.url : String(input);
    const url = new URL(raw, 'http://localhost');
    const handler = routes[url.pathname];
    if (!handler) return json({ error: 'Not found', statusCode: 404 }, 404);
    const result = await handler(url, init);
    return result instanceof Response ? result : json(result);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The URLs that the mock was called with, for one pathname. */
export function requestedUrls(fetchMock: ReturnType<typeof mockFetch>, pathname: string): URL[] {
  return fetchMock.mock.calls
    .map(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://localhost'))
    .filter((url) => url.pathname === pathname);
}

/** The JSON bodies that the mock was sent, for one pathname. */
export function sentBodies(fetchMock: ReturnType<typeof mockFetch>, pathname: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input]) => new URL(input instanceof Request ? input.url : String(input), 'http://localhost').pathname === pathname)
    .map(([, init]) => (typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body));
}

/** An answer with no body (204). */
export const noContent = () => new Response(null, { status: 204 });
