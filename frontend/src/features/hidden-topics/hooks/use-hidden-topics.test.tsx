import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/lib/api/types';
import { readHiddenCookie, useHiddenExclude } from '@/lib/hidden-topics';
import { createQueryClient } from '@/lib/react-query';
import { USER_QUERY_KEY } from '@/lib/session';
import { makeUser } from '@/testing/data';
import { json, mockFetch, sentBodies } from '@/testing/mock-fetch';
import { useHiddenTopics } from './use-hidden-topics';

const member = makeUser();

/** The hook and the exclude value the reads carry, for a visitor the cache already knows (a member, or null). */
function renderHidden(user: User | null) {
  const queryClient = createQueryClient({ queries: { retry: false, staleTime: Infinity } });
  queryClient.setQueryData(USER_QUERY_KEY, user);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const hook = renderHook(() => ({ hiding: useHiddenTopics(), exclude: useHiddenExclude() }), { wrapper });
  return { ...hook, queryClient };
}

/** The bodies of the PUTs to /api/me/hidden (its GETs have none). */
const puts = (fetchMock: ReturnType<typeof mockFetch>) => sentBodies(fetchMock, '/api/me/hidden').filter((body) => body !== undefined);

/** The raw cookie as the browser keeps it. */
const rawCookie = () => document.cookie.split('; ').find((part) => part.startsWith('hidden_topics='));

/** GET and PUT /api/me/hidden over a member's stored list, as the API answers them (sorted, repeats once). */
function memberApi(stored = { categories: ['bears'], performers: [] as string[], tags: [] as string[] }, put?: (body: typeof stored) => Response | undefined) {
  let list = stored;
  return mockFetch({
    '/api/me/hidden': (_url, init) => {
      if (init?.method !== 'PUT') return list;
      const body = JSON.parse(String(init.body)) as typeof stored;
      const refused = put?.(body);
      if (refused) return refused;
      list = { categories: [...new Set(body.categories)].sort(), performers: [...new Set(body.performers)].sort(), tags: [...new Set(body.tags)].sort() };
      return list;
    },
  });
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

describe('useHiddenTopics: a guest (the cookie)', () => {
  it('reads the cookie, writes each change back to it canonically, and the reads carry it as exclude', async () => {
    const fetchMock = mockFetch({});
    document.cookie = `hidden_topics=${encodeURIComponent('tag:feet,category:bears')}; Path=/`;
    const { result } = renderHidden(null);

    expect(result.current.hiding.isMember).toBe(false);
    expect(result.current.hiding.ready).toBe(true);
    expect(result.current.hiding.topics).toEqual({ categories: ['bears'], performers: [], tags: ['feet'] });
    expect(result.current.exclude).toBe('category:bears,tag:feet');

    act(() => result.current.hiding.hide('performer', 'ace-cruz'));
    expect(rawCookie()).toBe(`hidden_topics=${encodeURIComponent('category:bears,performer:ace-cruz,tag:feet')}`);
    await waitFor(() => expect(result.current.exclude).toBe('category:bears,performer:ace-cruz,tag:feet'));
    expect(result.current.hiding.isHidden('performer', 'ace-cruz')).toBe(true);

    // Another page load (a new cache) reads the same list from the cookie.
    const again = renderHidden(null);
    expect(again.result.current.hiding.topics).toEqual({ categories: ['bears'], performers: ['ace-cruz'], tags: ['feet'] });

    act(() => result.current.hiding.unhide('category', 'bears'));
    expect(readHiddenCookie()).toBe('performer:ace-cruz,tag:feet');
    await waitFor(() => expect(result.current.exclude).toBe('performer:ace-cruz,tag:feet'));

    act(() => result.current.hiding.clear());
    expect(rawCookie()).toBeUndefined();
    await waitFor(() => expect(result.current.exclude).toBe(''));
    // A guest's list never goes to the API.
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('reads a cookie that is no list as nothing hidden, as the server does', () => {
    mockFetch({});
    document.cookie = 'hidden_topics=category%3ABears!; Path=/';
    const { result } = renderHidden(null);
    expect(result.current.hiding.topics).toEqual({ categories: [], performers: [], tags: [] });
    expect(result.current.exclude).toBe('');
  });

  it('keeps at most 100 topics in all, and says so', () => {
    mockFetch({});
    const full = Array.from({ length: 100 }, (_, i) => `tag:t${i}`).join(',');
    document.cookie = `hidden_topics=${encodeURIComponent(full)}; Path=/`;
    const { result } = renderHidden(null);
    act(() => result.current.hiding.hide('category', 'bears'));
    expect(result.current.hiding.error).toMatch(/at most 100 hidden topics/);
    expect(result.current.hiding.isHidden('category', 'bears')).toBe(false);
    expect(readHiddenCookie()).toBe(readHiddenCookie(`hidden_topics=${encodeURIComponent(full)}`));
  });
});

describe('useHiddenTopics: a member (GET/PUT /api/me/hidden)', () => {
  it('reads the account’s list and PUTs all three lists at each change, shown at once', async () => {
    const fetchMock = memberApi();
    // A list this browser kept before signing in is not sent: the API applies the member's own.
    document.cookie = 'hidden_topics=tag%3Afeet; Path=/';
    const { result, queryClient } = renderHidden(member);
    queryClient.setQueryData(['videos', { sort: 'newest' }], { data: [], page: 1, limit: 24, total: 0 });
    queryClient.setQueryData(['watch', 'related', 7, ''], { related: true, data: [] });

    expect(result.current.hiding.ready).toBe(false);
    await waitFor(() => expect(result.current.hiding.ready).toBe(true));
    expect(result.current.hiding.isMember).toBe(true);
    expect(result.current.hiding.topics.categories).toEqual(['bears']);
    expect(result.current.exclude).toBe('');

    act(() => result.current.hiding.hide('performer', 'ace-cruz'));
    await waitFor(() => expect(result.current.hiding.isHidden('performer', 'ace-cruz')).toBe(true));
    await waitFor(() => expect(puts(fetchMock)).toEqual([{ categories: ['bears'], performers: ['ace-cruz'], tags: [] }]));
    // What the API leaves out of this member's reads changed: the listings and related rows are read again.
    await waitFor(() => expect(queryClient.getQueryState(['videos', { sort: 'newest' }])?.isInvalidated).toBe(true));
    expect(queryClient.getQueryState(['watch', 'related', 7, ''])?.isInvalidated).toBe(true);

    act(() => result.current.hiding.unhide('category', 'bears'));
    await waitFor(() => expect(puts(fetchMock)).toHaveLength(2));
    expect(puts(fetchMock)[1]).toEqual({ categories: [], performers: ['ace-cruz'], tags: [] });
    expect(result.current.hiding.topics).toEqual({ categories: [], performers: ['ace-cruz'], tags: [] });
    // The cookie is left as it was (the settings page offers to add it to the account).
    expect(readHiddenCookie()).toBe('tag:feet');
  });

  it('sends changes made in a row one after the other, each with every change before it', async () => {
    const fetchMock = memberApi({ categories: [], performers: [], tags: [] });
    const { result } = renderHidden(member);
    await waitFor(() => expect(result.current.hiding.ready).toBe(true));
    act(() => {
      result.current.hiding.hide('category', 'bears');
    });
    await waitFor(() => expect(result.current.hiding.isHidden('category', 'bears')).toBe(true));
    act(() => result.current.hiding.hide('tag', 'feet'));
    await waitFor(() => expect(puts(fetchMock)).toHaveLength(2));
    expect(puts(fetchMock)).toEqual([
      { categories: ['bears'], performers: [], tags: [] },
      { categories: ['bears'], performers: [], tags: ['feet'] },
    ]);
    await waitFor(() => expect(result.current.hiding.saving).toBe(false));
    expect(result.current.hiding.topics).toEqual({ categories: ['bears'], performers: [], tags: ['feet'] });
  });

  it('shows the API’s refusal and reads the stored list again', async () => {
    const fetchMock = memberApi(undefined, () => json({ error: 'Unknown tag: gone', statusCode: 400 }, 400));
    const { result } = renderHidden(member);
    await waitFor(() => expect(result.current.hiding.ready).toBe(true));
    act(() => result.current.hiding.hide('tag', 'gone'));
    await waitFor(() => expect(result.current.hiding.error).toBe('Your hidden topics were not saved: Unknown tag: gone'));
    await waitFor(() => expect(result.current.hiding.isHidden('tag', 'gone')).toBe(false));
    expect(fetchMock.mock.calls.filter(([url, init]) => url === '/api/me/hidden' && init?.method === 'GET').length).toBeGreaterThan(1);
  });

  it('adds the list this browser kept to the account, then forgets it here', async () => {
    const fetchMock = memberApi();
    document.cookie = `hidden_topics=${encodeURIComponent('category:bears,tag:feet')}; Path=/`;
    const { result } = renderHidden(member);
    await waitFor(() => expect(result.current.hiding.ready).toBe(true));
    expect(result.current.hiding.browserTopics).toEqual({ categories: ['bears'], performers: [], tags: ['feet'] });

    act(() => result.current.hiding.adoptBrowserTopics());
    await waitFor(() => expect(rawCookie()).toBeUndefined());
    expect(puts(fetchMock)).toEqual([{ categories: ['bears'], performers: [], tags: ['feet'] }]);
    expect(result.current.hiding.topics).toEqual({ categories: ['bears'], performers: [], tags: ['feet'] });
    expect(result.current.hiding.browserTopics).toEqual({ categories: [], performers: [], tags: [] });
  });
});
