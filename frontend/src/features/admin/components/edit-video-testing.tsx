// Test helpers shared by the edit panel's test files (not a test file itself).
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import type { Video } from '@/lib/api/types';
import { createQueryClient } from '@/lib/react-query';
import { makeSite, makeWatchVideo } from '@/testing/data';
import { mockFetch } from '@/testing/mock-fetch';
import { AdminNoticeProvider } from './admin-notice';
import { EditVideoPanel } from './edit-video-panel';

type Routes = Parameters<typeof mockFetch>[0];

export const CATEGORIES = [
  { id: 'bears', name: 'Bears', video_count: 4 },
  { id: 'pool', name: 'Pool', video_count: 2 },
  { id: 'twinks', name: 'Twinks', video_count: 7 },
];

export const PERFORMERS = [
  { id: 'alex-hunk', name: 'Alex Hunk', video_count: 3 },
  { id: 'sam-strong', name: 'Sam Strong', video_count: 1 },
];

export const TAGS = [
  { id: 'muscle', name: 'Muscle', video_count: 5 },
  { id: 'beach', name: 'Beach', video_count: 2 },
  { id: 'leather', name: 'Leather', video_count: 0 },
];

export const panelVideo = (overrides: Partial<Video> = {}) =>
  makeWatchVideo({
    id: 7,
    slug: 'pool-party',
    title: 'Pool party',
    atg_title: 'ATG pool party',
    jtg_title: 'JTG pool party',
    views: 120,
    likes: 9,
    featured: 1,
    upload_date: '2024-06-01T12:00:00.000Z',
    thumbnail: '/thumbs/2024/06/pool-party/poster.jpg',
    url: '/2024/06/pool-party.mp4',
    categories: [{ id: 'bears', name: 'Bears' }],
    performers: [
      { id: 'alex-hunk', name: 'Alex Hunk' },
      { id: 'sam-strong', name: 'Sam Strong' },
    ],
    ...overrides,
  });

/** A promise the test settles itself, to look at a request while it runs. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** The calls that the mock had for one pathname and method. */
export function callsTo(fetchMock: ReturnType<typeof mockFetch>, pathname: string, method = 'POST') {
  return fetchMock.mock.calls.filter(
    ([input, init]) =>
      new URL(input, 'http://localhost').pathname === pathname &&
      (init?.method ?? 'GET') === method,
  );
}

interface PanelSetup {
  video?: Video;
  routes?: Routes;
  applyAccept?: boolean;
}

/** The panel as the edit page shows it: for one video, inside the admin shell's notices, over a mocked API. */
export function renderPanel({ video = panelVideo(), routes = {}, applyAccept = true }: PanelSetup = {}) {
  const fetchMock = mockFetch({
    '/api/site': () => makeSite(),
    '/api/get-client-ip': () => ({ ip: '203.0.113.7' }),
    '/api/categories': () => ({ data: CATEGORIES }),
    '/api/performers': () => ({ data: PERFORMERS }),
    '/api/tags': () => ({ data: TAGS }),
    ...routes,
  });
  const onSaved = vi.fn();
  const onDeleted = vi.fn();
  const queryClient = createQueryClient({ queries: { retry: false, staleTime: Infinity } });
  const user = userEvent.setup({ applyAccept });
  const utils = render(
    <QueryClientProvider client={queryClient}>
      <AdminNoticeProvider>
        <EditVideoPanel video={video} onSaved={onSaved} onDeleted={onDeleted} />
      </AdminNoticeProvider>
    </QueryClientProvider>,
  );
  return { ...utils, fetchMock, onSaved, onDeleted, user, video, queryClient };
}
