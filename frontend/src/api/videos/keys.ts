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
  /** Topics left out (`category:bears,tag:feet`); the visitor's hidden topics are added to it (useVideos). */
  exclude?: string;
}

/**
 * Catalogue listings are cached under ['videos', params] (all of them invalidated by ['videos'] after an edit);
 * one video under ['video', id]; a video's related row under ['watch', 'related', id, exclude] (all of them under
 * ['watch', 'related'], read again after a member changes their hidden topics).
 */
export const videoKeys = {
  lists: ['videos'] as const,
  list: (params: GetVideosParams) => ['videos', params] as const,
  details: ['video'] as const,
  detail: (id: number) => ['video', id] as const,
  related: ['watch', 'related'] as const,
  relatedOf: (id: number, exclude: string) => ['watch', 'related', id, exclude] as const,
};
