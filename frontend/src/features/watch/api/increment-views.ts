import { api, ok } from '@/lib/api/client';
import type { VideoId, ViewCount } from '@/lib/api/types';

export const incrementViews = (body: VideoId) => ok(api.POST('/api/video/increment-views', { body }));

/**
 * Counts a view, as a beacon: the answer, or null once the failure is logged. Not a mutation hook: its state is
 * nobody's, and a hook's each step (pending, then done) would draw the whole page again while it hydrates
 * (docs/web-client.md › "Boot work").
 */
export const countView = (body: VideoId): Promise<ViewCount | null> =>
  incrementViews(body).catch((error: unknown) => {
    console.error('Error counting the view', error);
    return null;
  });
