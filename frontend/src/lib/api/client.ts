import createClient from 'openapi-fetch';
import type { paths } from './schema';
import type { ApiErrorBody } from './types';

/** A non-2xx answer, carrying the contract's error body. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly errorCode: string | undefined;
  /** The server's own `error` text; undefined when the answer had none (a proxy's page, an empty body). */
  readonly serverError: string | undefined;

  constructor(body: ApiErrorBody, fromServer = true) {
    super(body.error);
    this.name = 'ApiError';
    this.statusCode = body.statusCode;
    this.errorCode = body.errorCode;
    this.serverError = fromServer ? body.error : undefined;
  }
}

/**
 * Some success bodies carry an `error` field (null on success); the watch page counts a non-null one as a
 * failure, like a non-2xx answer.
 */
export function throwIfError<T>(body: T, statusCode = 200): T {
  const error = (body as { error?: unknown } | null | undefined)?.error;
  if (error !== null && error !== undefined) {
    throw new ApiError({ error: String(error), statusCode }, typeof error === 'string' && error !== '');
  }
  return body;
}

function isErrorBody(value: unknown): value is Partial<ApiErrorBody> {
  return typeof value === 'object' && value !== null && 'error' in value;
}

/**
 * The ApiError for a non-2xx answer, from its status and its body parsed as JSON (anything else when it was not
 * JSON: a proxy's HTML page, an empty body), for the client here and for uploads sent with XMLHttpRequest.
 */
export function apiErrorFrom(status: number, statusText: string, parsed: unknown): ApiError {
  if (isErrorBody(parsed) && typeof parsed.error === 'string') {
    return new ApiError({
      error: parsed.error,
      errorCode: typeof parsed.errorCode === 'string' ? parsed.errorCode : undefined,
      statusCode: typeof parsed.statusCode === 'number' ? parsed.statusCode : status,
    });
  }
  return new ApiError({ error: statusText || `Request failed with status ${status}`, statusCode: status }, false);
}

/** Query values that are empty, null or undefined are left out; the others are sent as their text. */
function serializeQuery(query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

const apiBase: string = import.meta.env.VITE_API_URL ?? '';

/** The address of an API path, for the one request that does not go through `api` (uploads, sent with XHR). */
export const apiUrl = (path: keyof paths): string => `${apiBase}${path}`;

/**
 * Where the pages rendered on the server send their reads (entry-server.tsx): it sets this to a fetch that
 * takes the request to the API process that renders them. Null in the browser.
 */
let serverFetch: ((request: Request) => Promise<Response>) | null = null;
export function setServerFetch(fetcher: typeof serverFetch): void {
  serverFetch = fetcher;
}
/** The origin requests name on the server, where there is no page; its fetch sends them to the right place. */
export const SERVER_ORIGIN = 'http://server.invalid';

/** Requests are built as Request objects, which need an absolute URL: by default this site's own origin. */
const baseUrl: string = apiBase || globalThis.location?.origin || SERVER_ORIGIN;

/**
 * The one HTTP client of the web app, typed by path from the OpenAPI document (schema.d.ts): the path, its
 * parameters, the body and the answer's type all come from the document, so a caller cannot name its own.
 * JSON in and out (multipart when the body serializer returns a FormData), cookies included. Unwrap its
 * answers with `ok()`.
 */
export const api = createClient<paths>({
  baseUrl,
  credentials: 'include',
  // The catalogue's answers may be reused for a few seconds by shared caches (nginx), but this app always asks
  // the server: with the ETag it kept, an unchanged answer costs a 304, and an admin's edit shows at once.
  cache: 'no-cache',
  headers: { Accept: 'application/json' },
  querySerializer: serializeQuery,
  // Looked up at each call, not when the module loads, so that tests can replace `fetch`.
  fetch: (request) => (serverFetch ?? globalThis.fetch)(request),
});

/**
 * The body of the admin's command POSTs (clear-cache, refresh-views), which the document types as an empty
 * object (EmptyBodyDto): the client sends no body at all, as it always has, and the API reads that the same way.
 */
export const NO_BODY = undefined as unknown as Record<string, never>;

/** What every method of `api` resolves to: the parsed body of a 2xx answer, or the parsed error body. */
interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/**
 * The body of a 2xx answer (undefined for a 204 or an empty body); a non-2xx answer throws its ApiError
 * carrying the contract's error body. Network failures pass through unchanged.
 */
export async function ok<D>(answer: Promise<Answer<D>>): Promise<D> {
  const { data, error, response } = await answer;
  if (!response.ok) throw apiErrorFrom(response.status, response.statusText, error);
  return data as D;
}
