import type { GetVideosParams } from './get-videos';

/**
 * Catalogue listings are cached under ['videos', params] (all of them invalidated by ['videos'] after an edit);
 * one video under ['video', id].
 */
export const videoKeys = {
  lists: ['videos'] as const,
  list: (params: GetVideosParams) => ['videos', params] as const,
  details: ['video'] as const,
  detail: (id: number) => ['video', id] as const,
};
