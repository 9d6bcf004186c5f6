import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch } from '@/testing/mock-fetch';
import { api, ApiError, apiUrl, NO_BODY, ok, throwIfError } from './client';

describe('api client', () => {
  it('sends cookies and drops empty query values', async () => {
    const fetchMock = mockFetch({ '/api/videos': () => ({ data: [] }) });

    await ok(api.GET('/api/videos', { params: { query: { sort: 'newest', page: 2, q: '', category: undefined } } }));

    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/videos?sort=newest&page=2');
    expect(init).toMatchObject({ method: 'GET', credentials: 'include' });
    expect(init?.headers.get('Accept')).toBe('application/json');
  });

  it("revalidates every read with the browser's cache (an ETag answer is a 304), never reusing a stale copy", async () => {
    const fetchMock = mockFetch({ '/api/videos/7': () => ({ id: 7 }) });

    await ok(api.GET('/api/videos/{id}', { params: { path: { id: 7 } } }));

    expect(fetchMock.mock.calls[0][1]?.cache).toBe('no-cache');
  });

  it('fills in path parameters', async () => {
    const fetchMock = mockFetch({ '/api/playlists/5/videos/9': () => new Response(null, { status: 204 }) });

    await ok(api.DELETE('/api/playlists/{id}/videos/{videoId}', { params: { path: { id: 5, videoId: 9 } } }));

    expect(fetchMock.mock.calls[0][0]).toBe('/api/playlists/5/videos/9');
    expect(fetchMock.mock.calls[0][1]?.method).toBe('DELETE');
  });

  it('sends a body as JSON', async () => {
    const fetchMock = mockFetch({ '/api/video/increment-views': () => ({ views: 3 }) });

    const result = await ok(api.POST('/api/video/increment-views', { body: { videoId: 7 } }));

    expect(result).toEqual({ views: 3 });
    const init = fetchMock.mock.calls[0][1];
    expect(init?.body).toBe('{"videoId":7}');
    expect(init?.headers.get('Content-Type')).toBe('application/json');
  });

  it('sends no body at all for the commands whose body is empty', async () => {
    const fetchMock = mockFetch({ '/api/admin/clear-cache': () => ({ error: null }) });

    await ok(api.POST('/api/admin/clear-cache', { body: NO_BODY }));

    expect(fetchMock.mock.calls[0][1]?.body).toBeUndefined();
    expect(fetchMock.mock.calls[0][1]?.headers.get('Content-Type')).toBeNull();
  });

  it('sends a FormData as multipart, leaving the Content-Type to the browser', async () => {
    const fetchMock = mockFetch({ '/api/admin/update-thumbnail': () => ({ url: '/thumbs/a.jpg' }) });
    const form = new FormData();
    form.append('uploadPath', '/thumbs/a.jpg');

    await ok(
      api.POST('/api/admin/update-thumbnail', {
        body: { uploadPath: '/thumbs/a.jpg', file: '' },
        bodySerializer: () => form,
      }),
    );

    expect(fetchMock.mock.calls[0][1]?.body).toBe(form);
    expect(fetchMock.mock.calls[0][1]?.headers.get('Content-Type')).not.toBe('application/json');
  });

  it('resolves a 204 to undefined', async () => {
    mockFetch({ '/api/me/history': () => new Response(null, { status: 204 }) });

    await expect(ok(api.DELETE('/api/me/history'))).resolves.toBeUndefined();
  });

  it("throws an ApiError carrying the contract's error body", async () => {
    mockFetch({
      '/api/video/increment-likes': () =>
        json({ error: 'Already liked', errorCode: 'ALREADY_LIKED', statusCode: 409 }, 409),
    });

    const failure = await ok(api.POST('/api/video/increment-likes', { body: { videoId: 1 } })).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ message: 'Already liked', errorCode: 'ALREADY_LIKED', statusCode: 409 });
    expect(failure).toHaveProperty('serverError', 'Already liked');
  });

  it('throws an ApiError with the status when the error body is not JSON', async () => {
    mockFetch({
      '/api/site': () => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    });

    await expect(ok(api.GET('/api/site'))).rejects.toMatchObject({
      name: 'ApiError',
      message: 'Bad Gateway',
      statusCode: 502,
      errorCode: undefined,
      serverError: undefined,
    });
  });

  it('lets network failures through unchanged', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    await expect(ok(api.GET('/api/site'))).rejects.toThrow(TypeError);
  });

  it('gives the address of a path for requests sent outside the client', () => {
    expect(apiUrl('/api/admin/videos')).toBe('/api/admin/videos');
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
