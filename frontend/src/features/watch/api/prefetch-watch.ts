import type { QueryClient } from '@tanstack/react-query';
import { videoQueryOptions } from '@/api/videos/get-video';
import { hasMediaSource, loadHls } from '../utils/load-hls';
import { secureUrlQueryOptions } from './get-secure-url';

/**
 * Starts what the first frame waits for as soon as the router matches /video/{id}, while the page's own code
 * is still downloading: hls.js (the largest download) and the two chained reads, the video and then its signed
 * stream URL. Failures are left to the page, whose queries fetch again and show them.
 */
export function prefetchWatch(queryClient: QueryClient, id: number): void {
  if (hasMediaSource()) void loadHls().catch(() => undefined);
  void queryClient
    .fetchQuery(videoQueryOptions(id))
    .then((video) => (video.stream_path ? queryClient.prefetchQuery(secureUrlQueryOptions(video.stream_path)) : undefined))
    .catch(() => undefined);
}
