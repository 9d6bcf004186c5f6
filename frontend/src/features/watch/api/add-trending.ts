import { api, ok } from '@/lib/api/client';
import type { VideoId } from '@/lib/api/types';

export const addTrending = (body: VideoId) => ok(api.POST('/api/video/add-trending', { body }));

/** A trending signal, as a beacon (see countView): a failure is logged, nothing else. */
export const sendTrending = (body: VideoId): Promise<void> =>
  addTrending(body).then(
    () => undefined,
    (error: unknown) => console.error('Error adding trending signal', error),
  );
