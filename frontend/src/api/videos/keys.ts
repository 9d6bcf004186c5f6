import type { ListingFilters } from '@hunktube/shared';
import type { VideoSort } from './sorts';

/** A catalogue listing's query: what it is filtered and sorted by, and which page (GET /api/videos). */
export interface GetVideosParams extends ListingFilters {
  sort?: VideoSort;
  page?: number;
  limit?: number;
  category?: string;
  performer?: string;
  tag?: string;
  q?: string;
  featured?: boolean;
}

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
