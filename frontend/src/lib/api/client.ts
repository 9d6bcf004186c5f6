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

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: QueryParams;
  /** Sent as JSON, or as multipart when it is a FormData. */
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

const baseUrl: string = import.meta.env.VITE_API_URL ?? '';

export function buildUrl(path: string, query?: QueryParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

function isErrorBody(value: unknown): value is Partial<ApiErrorBody> {
  return typeof value === 'object' && value !== null && 'error' in value;
}

/**
 * The ApiError for a non-2xx answer, from its status and its body parsed as JSON (null when it was not JSON:
 * a proxy's HTML page, an empty body), for the fetch client here and for uploads sent with XMLHttpRequest.
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

async function toApiError(response: Response): Promise<ApiError> {
  let parsed: unknown = null;
  try {
    parsed = await response.json();
  } catch {
    // Not JSON: apiErrorFrom falls back to the status line.
  }
  return apiErrorFrom(response.status, response.statusText, parsed);
}

async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    // Multipart: the browser writes the Content-Type with its boundary.
    body = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }

  const response = await fetch(buildUrl(path, options.query), {
    method,
    headers,
    body,
    credentials: 'include',
    signal: options.signal,
  });

  if (!response.ok) throw await toApiError(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The one HTTP client of the web app: JSON in and out, cookies included, ApiError on failure. */
export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
