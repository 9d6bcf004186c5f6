import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/testing/mock-fetch';
import { api, ApiError, throwIfError } from './client';

describe('api client', () => {
  it('sends cookies and drops empty query values', async () => {
    const fetchMock = mockFetch({ '/api/videos': () => ({ data: [] }) });

    await api.get('/api/videos', { query: { sort: 'newest', page: 2, q: '', category: undefined, x: null } });

    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/videos?sort=newest&page=2');
    expect(init).toMatchObject({ method: 'GET', credentials: 'include' });
  });

  it('sends a body as JSON', async () => {
    const fetchMock = mockFetch({ '/api/video/increment-views': () => ({ views: 3 }) });

    const result = await api.post<{ views: number }>('/api/video/increment-views', { videoId: 7 });

    expect(result).toEqual({ views: 3 });
    const init = fetchMock.mock.calls[0][1];
    expect(init?.body).toBe('{"videoId":7}');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('resolves a 204 to undefined', async () => {
    mockFetch({ '/api/me/history': () => new Response(null, { status: 204 }) });

    await expect(api.delete('/api/me/history')).resolves.toBeUndefined();
  });

  it("throws an ApiError carrying the contract's error body", async () => {
    mockFetch({
      '/api/video/increment-likes': () =>
        json({ error: 'Already liked', errorCode: 'ALREADY_LIKED', statusCode: 409 }, 409),
    });

    const failure = await api.post('/api/video/increment-likes', { videoId: 1 }).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ message: 'Already liked', errorCode: 'ALREADY_LIKED', statusCode: 409 });
    expect(failure).toHaveProperty('serverError', 'Already liked');
  });

  it('throws an ApiError with the status when the error body is not JSON', async () => {
    mockFetch({
      '/api/site': () => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    });

    await expect(api.get('/api/site')).rejects.toMatchObject({
      name: 'ApiError',
      message: 'Bad Gateway',
      statusCode: 502,
      errorCode: undefined,
      serverError: undefined,
    });
  });

  it('lets network failures through unchanged', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    await expect(api.get('/api/site')).rejects.toThrow(TypeError);
  });
});

describe('throwIfError', () => {
  it('passes a success body whose error is null', () => {
    const body = { queued: true, error: null };
    expect(throwIfError(body)).toBe(body);
    expect(throwIfError(undefined)).toBeUndefined();
  });

  it('turns an error field into an ApiError carrying it', () => {
    expect(() => throwIfError({ queued: false, error: 'Queue is full' })).toThrow(
      expect.objectContaining({ name: 'ApiError', message: 'Queue is full', serverError: 'Queue is full' }),
    );
  });
});
