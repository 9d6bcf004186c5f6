// Hand-written from /work/shared/api-contract.md for now; a later change generates these from the
// backend's OpenAPI document (openapi-typescript) and this file goes away.

export type Brand = 'default' | 'atg' | 'jtg';

export interface Site {
  name: string;
  brand: Brand;
  /** Media hosts keyed by a video's `cdn` value, plus "default". */
  mediaHosts: Record<string, string>;
  imageHost: string;
}

export interface VideoCard {
  id: number;
  slug: string;
  title: string;
  atg_title: string | null;
  jtg_title: string | null;
  /** A URL or a path under the image host; empty or null when the video has none yet. */
  thumbnail: string | null;
  /** URL of the short muted hover clip, or null. */
  preview: string | null;
  views: number;
  likes: number;
  featured: boolean;
  /** Whole seconds, or null while unknown. */
  duration: number | null;
  /** ISO 8601. */
  upload_date: string;
  cdn: string | null;
  url: string;
}

export interface Paginated<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
}

/** The body of every non-2xx answer. */
export interface ApiErrorBody {
  error: string;
  errorCode?: string;
  statusCode: number;
}
