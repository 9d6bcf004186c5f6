import { captionsPathOf, previewPathOf, posterPathOf, storyboardPathOf, streamPathOf } from '../common/media-paths';
import type { TaxonRefDto } from '../taxa/taxon-ref.dto';
import type { ChapterDto, VideoCardDto, VideoDto } from './dto/video.dto';
import { iso } from '../common/utils/iso';

/** The columns a card needs, as selected by `CARD_COLUMNS`. */
export interface VideoCardRow {
  id: number;
  slug: string;
  title: string;
  atg_title: string;
  jtg_title: string;
  thumbnail: string;
  views: number;
  likes: number;
  featured: number;
  duration: number | null;
  upload_date: Date | string;
  cdn: number;
  url: string;
  media_ready: boolean;
}

export const CARD_COLUMNS = [
  'id', 'slug', 'title', 'atg_title', 'jtg_title', 'thumbnail', 'views', 'likes', 'featured', 'duration',
  'upload_date', 'cdn', 'url', 'media_ready',
] as const;

/** `CARD_COLUMNS` qualified by a table alias, for raw SQL. */
export const cardColumns = (alias: string) => CARD_COLUMNS.map((c) => `${alias}.${c}`).join(', ');

export function toVideoCard(row: VideoCardRow, imageHost: string): VideoCardDto {
  return {
    id: Number(row.id),
    slug: row.slug,
    title: row.title,
    atg_title: row.atg_title,
    jtg_title: row.jtg_title,
    thumbnail: row.thumbnail,
    preview: row.media_ready ? imageHost + previewPathOf(row.url) : null,
    views: Number(row.views),
    likes: Number(row.likes),
    featured: Number(row.featured),
    duration: row.duration === null ? null : Number(row.duration),
    upload_date: iso(row.upload_date),
    cdn: Number(row.cdn),
    url: row.url,
  };
}

/** What a video has besides its card's columns: its taxa with their names, and its chapters. */
export interface VideoDetails {
  categories: TaxonRefDto[];
  performers: TaxonRefDto[];
  tags: TaxonRefDto[];
  chapters: ChapterDto[];
  /** Its caption files: language, label, and when each was last written (for its URL). */
  captions: StoredCaption[];
}

export interface StoredCaption {
  lang: string;
  label: string;
  updatedAt: Date;
}

/** A caption file's public URL: its query changes with each new upload, so no cache serves the old one. */
export const captionUrl = (url: string, caption: StoredCaption, imageHost: string) =>
  `${imageHost}${captionsPathOf(url, caption.lang)}?v=${Math.floor(caption.updatedAt.getTime() / 1000)}`;

export function toVideo(row: VideoCardRow, details: VideoDetails, imageHost: string): VideoDto {
  return {
    ...toVideoCard(row, imageHost),
    categories: details.categories,
    performers: details.performers,
    tags: details.tags,
    chapters: details.chapters,
    captions: details.captions.map((caption) => ({ lang: caption.lang, label: caption.label, url: captionUrl(row.url, caption, imageHost) })),
    stream_path: streamPathOf(row.url),
    poster: row.media_ready ? imageHost + posterPathOf(row.url) : row.thumbnail || null,
    storyboard: row.media_ready ? imageHost + storyboardPathOf(row.url) : null,
  };
}
