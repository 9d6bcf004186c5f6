import { CHAPTER_TITLE_MAX_LENGTH, CHAPTERS_MAX, TAGS_PER_VIDEO_MAX } from '@hunktube/shared';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TaxonRefDto } from '../../taxa/taxon-ref.dto';

export class VideoCardDto {
  @ApiProperty() id: number;
  @ApiProperty() slug: string;
  @ApiProperty() title: string;
  @ApiProperty() atg_title: string;
  @ApiProperty() jtg_title: string;
  @ApiProperty({ description: 'URL or path of the thumbnail; a path is joined with the image host' }) thumbnail: string;
  @ApiProperty({ type: String, nullable: true, description: 'URL of the short muted hover clip' }) preview: string | null;
  @ApiProperty() views: number;
  @ApiProperty() likes: number;
  @ApiProperty() featured: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Whole seconds' }) duration: number | null;
  @ApiProperty({ format: 'date-time' }) upload_date: string;
  @ApiProperty({ description: 'Selects the media host: 1, 2 or other (default)' }) cdn: number;
  @ApiProperty({ description: 'Source path, e.g. /2024/06/pool-party.mp4' }) url: string;
}

/** A moment of the video an admin marked (issue #34): its start in whole seconds and its title. */
export class ChapterDto {
  @ApiProperty({ minimum: 0, maximum: 86_400, example: 95 }) start: number;
  @ApiProperty({ minLength: 1, maxLength: CHAPTER_TITLE_MAX_LENGTH, example: 'Poolside' }) title: string;
}

/** A caption file of the video (issue #34): its language, its label in the CC menu, its WebVTT file. */
export class CaptionDto {
  @ApiProperty({ example: 'en', description: 'BCP 47 language tag, canonical' }) lang: string;
  @ApiProperty({ example: 'English' }) label: string;
  @ApiProperty({ example: 'https://img.example.com/thumbs/2024/06/pool-party/captions/en.vtt?v=1764340000', description: 'The WebVTT file; its query changes when it is replaced' }) url: string;
}

export class VideoDto extends VideoCardDto {
  @ApiProperty({ type: [TaxonRefDto] }) categories: TaxonRefDto[];
  @ApiProperty({ type: [TaxonRefDto] }) performers: TaxonRefDto[];
  @ApiProperty({ type: [TaxonRefDto], maxItems: TAGS_PER_VIDEO_MAX, description: 'Free-form keywords, by name' }) tags: TaxonRefDto[];
  @ApiProperty({ type: [ChapterDto], maxItems: CHAPTERS_MAX, description: 'Ascending by start; empty when none were marked' }) chapters: ChapterDto[];
  @ApiProperty({ type: [CaptionDto], description: 'By language; empty when there are none' }) captions: CaptionDto[];
  @ApiProperty({ description: 'The /videos/{stem}/index.m3u8 path to pass to /api/video/secure' }) stream_path: string;
  @ApiProperty({ type: String, nullable: true }) poster: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'URL of the WebVTT seek-preview file' }) storyboard: string | null;
}

export class VideoCardPageDto {
  @ApiProperty({ type: [VideoCardDto] }) data: VideoCardDto[];
  @ApiProperty() page: number;
  @ApiProperty() limit: number;
  @ApiProperty() total: number;
}

export class VideoCardListDto {
  @ApiProperty({ type: [VideoCardDto] }) data: VideoCardDto[];
}

export class RelatedVideosDto {
  @ApiProperty({ description: 'false when nothing shares a category or performer: data then holds up to 6 hot videos' })
  related: boolean;

  @ApiProperty({ type: [VideoCardDto] }) data: VideoCardDto[];
}

export class HistoryVideoCardDto extends VideoCardDto {
  @ApiPropertyOptional({ format: 'date-time' }) watched_at?: string;
}
