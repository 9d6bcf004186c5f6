import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { CHAPTER_TITLE_MAX_LENGTH, CHAPTERS_MAX, TAGS_PER_VIDEO_MAX, TAXON_NAME_MAX_LENGTH, VIDEO_TITLE_MAX_LENGTH } from '@hunktube/shared';
import { MAX_ID } from '../../common/dto/video-id.dto';
import { VideoDto } from '../../videos/dto/video.dto';

export const MAX_TAXA_PER_VIDEO = 100;

/**
 * May be left out (the field keeps its value), but not sent as null: every editable column is NOT NULL, and
 * `@IsOptional()` would let a null through to the database (a 500 on the constraint instead of a 400).
 */
const Omittable = () => ValidateIf((_object: object, value: unknown) => value !== undefined);

const positiveId = { message: 'id must be a positive integer' };
const count = (name: string) => ({ message: `${name} must be an integer from 0 to ${MAX_ID}` });

/** A category or performer as the client holds it: by id, by name (case-insensitive), or both. */
export class VideoTaxonRefDto {
  @ApiPropertyOptional({ example: 'big-muscle-men', description: 'Matched first' })
  @IsOptional()
  @IsString({ message: 'the id of a category or performer must be a string' })
  @MaxLength(100)
  id?: string;

  @ApiPropertyOptional({ example: 'Big Muscle Men', description: 'Matched case-insensitively when there is no known id' })
  @IsOptional()
  @IsString({ message: 'the name of a category or performer must be a string' })
  @MaxLength(100)
  name?: string;
}

/** A chapter as the admin panel sends it; the list is sorted by start on saving (two at one second: 400). */
export class ChapterInputDto {
  @ApiProperty({ minimum: 0, maximum: 86_400, description: 'Whole seconds from the start; before the end of the video when its duration is known' })
  @IsInt({ message: 'a chapter start must be a whole number of seconds' })
  @Min(0, { message: 'a chapter start must not be negative' })
  @Max(86_400, { message: 'a chapter start must be at most 86400 seconds' })
  start: number;

  @ApiProperty({ minLength: 1, maxLength: CHAPTER_TITLE_MAX_LENGTH, description: 'Plain text; spaces around it are trimmed' })
  @IsString({ message: 'a chapter title must be a string' })
  @Matches(/\S/, { message: 'a chapter title must not be empty' })
  @MaxLength(CHAPTER_TITLE_MAX_LENGTH, { message: `a chapter title must be at most ${CHAPTER_TITLE_MAX_LENGTH} characters long` })
  title: string;
}

/**
 * Each tag a name (a string with a letter or digit, at most TAXON_NAME_MAX_LENGTH characters), or `{id, name}` as
 * the Video object carries it, so that a video read and sent back whole is accepted.
 */
@ValidatorConstraint({ name: 'tagNames' })
class TagNames implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    const name = (item: unknown) => typeof item === 'string' && item.length <= TAXON_NAME_MAX_LENGTH && /[\p{L}\p{N}]/u.test(item);
    return Array.isArray(value) && value.every((item) => {
      if (typeof item === 'string') return name(item);
      if (typeof item !== 'object' || item === null || Array.isArray(item)) return false;
      const { id, name: itemName, ...rest } = item as Record<string, unknown>;
      return Object.keys(rest).length === 0 && (id === undefined || name(id)) && (itemName === undefined || name(itemName)) && (id !== undefined || itemName !== undefined);
    });
  }

  defaultMessage(): string {
    return `tags must be an array of names (or {id, name}), each with a letter or digit and at most ${TAXON_NAME_MAX_LENGTH} characters`;
  }
}

/** Each element a plain object: ValidateNested alone lets a nested array through (it validates its no elements). */
@ValidatorConstraint({ name: 'objectsEach' })
class ObjectsEach implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return !Array.isArray(value) || value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item));
  }

  defaultMessage(): string {
    return 'each chapter must be an object {start, title}';
  }
}

const TaxaProperty = (name: 'categories' | 'performers') =>
  applyDecorators(
    ApiPropertyOptional({
      type: [VideoTaxonRefDto],
      description: `Replaces the video's ${name}; each must exist (400 "Unknown ${name === 'categories' ? 'category' : 'performer'}: …")`,
    }),
    Omittable(),
    IsArray({ message: `${name} must be an array of {id, name}` }),
    ArrayMaxSize(MAX_TAXA_PER_VIDEO),
    ValidateNested({ each: true }),
    Type(() => VideoTaxonRefDto),
  );

/**
 * The writable part of the `Video` object that the admin panel sends whole. Only these fields are read; every
 * other field of the body (duration, stream_path, cdn, anything else) is accepted and ignored. A writable field
 * left out keeps its value.
 */
@ApiExtraModels(VideoTaxonRefDto)
export class UpdateVideoDto {
  @ApiProperty({ minimum: 1, example: 42 })
  @IsInt(positiveId)
  @Min(1, positiveId)
  @Max(MAX_ID, positiveId)
  id: number;

  @ApiPropertyOptional({ minLength: 1, maxLength: 200, pattern: '^[a-z0-9-]+$', description: 'Unique (409 when another video has it)' })
  @Omittable()
  @IsString({ message: 'slug must be a string' })
  @Matches(/^[a-z0-9-]{1,200}$/, { message: 'slug must be 1 to 200 characters of a-z, 0-9 and -' })
  slug?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: VIDEO_TITLE_MAX_LENGTH })
  @Omittable()
  @IsString({ message: 'title must be a string' })
  @Matches(/\S/, { message: 'title must not be empty' })
  @MaxLength(VIDEO_TITLE_MAX_LENGTH, { message: `title must be at most ${VIDEO_TITLE_MAX_LENGTH} characters long` })
  title?: string;

  @ApiPropertyOptional({ maxLength: VIDEO_TITLE_MAX_LENGTH })
  @Omittable()
  @IsString({ message: 'atg_title must be a string' })
  @MaxLength(VIDEO_TITLE_MAX_LENGTH, { message: `atg_title must be at most ${VIDEO_TITLE_MAX_LENGTH} characters long` })
  atg_title?: string;

  @ApiPropertyOptional({ maxLength: VIDEO_TITLE_MAX_LENGTH })
  @Omittable()
  @IsString({ message: 'jtg_title must be a string' })
  @MaxLength(VIDEO_TITLE_MAX_LENGTH, { message: `jtg_title must be at most ${VIDEO_TITLE_MAX_LENGTH} characters long` })
  jtg_title?: string;

  @ApiPropertyOptional({ minimum: 0, description: 'The total from now on; buffered counts are written first' })
  @Omittable()
  @IsInt(count('views'))
  @Min(0, count('views'))
  @Max(MAX_ID, count('views'))
  views?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'The total from now on; buffered counts are written first' })
  @Omittable()
  @IsInt(count('likes'))
  @Min(0, count('likes'))
  @Max(MAX_ID, count('likes'))
  likes?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'Greater than 0 marks the video featured' })
  @Omittable()
  @IsInt(count('featured'))
  @Min(0, count('featured'))
  @Max(MAX_ID, count('featured'))
  featured?: number;

  @ApiPropertyOptional({ format: 'date-time', example: '2024-06-01T12:00:00.000Z' })
  @Omittable()
  @IsISO8601({ strict: true }, { message: 'upload_date must be an ISO 8601 date' })
  upload_date?: string;

  @ApiPropertyOptional({ maxLength: 500, description: 'URL or path of the thumbnail' })
  @Omittable()
  @IsString({ message: 'thumbnail must be a string' })
  @MaxLength(500, { message: 'thumbnail must be at most 500 characters long' })
  thumbnail?: string;

  @ApiPropertyOptional({ maxLength: 500, example: '/2024/06/pool-party.mp4', description: 'Source path (or http(s) URL); its stem names the media folders' })
  @Omittable()
  @IsString({ message: 'url must be a string' })
  @MaxLength(500, { message: 'url must be at most 500 characters long' })
  @Matches(/^(\/|https?:\/\/)/i, { message: 'url must be a path starting with / or an http(s) URL' })
  @Matches(/^(?!.*(^|[/\\])\.\.([/\\]|$))/, { message: 'url must not contain .. segments' })
  url?: string;

  @TaxaProperty('categories')
  categories?: VideoTaxonRefDto[];

  @TaxaProperty('performers')
  performers?: VideoTaxonRefDto[];

  @ApiPropertyOptional({
    type: 'array',
    items: { oneOf: [{ type: 'string', maxLength: TAXON_NAME_MAX_LENGTH }, { $ref: getSchemaPath(VideoTaxonRefDto) }] },
    maxItems: TAGS_PER_VIDEO_MAX,
    example: ['muscle', 'Poolside'],
    description: "Replaces the video's tags ([] removes them): names, matched by id (the slug rule), synonym or name; new ones are created. {id, name} as the Video carries them is read too",
  })
  @Omittable()
  @IsArray({ message: 'tags must be an array of names' })
  @ArrayMaxSize(TAGS_PER_VIDEO_MAX, { message: `a video has at most ${TAGS_PER_VIDEO_MAX} tags` })
  @Validate(TagNames)
  tags?: (string | { id?: string; name?: string })[];

  @ApiPropertyOptional({ type: [ChapterInputDto], maxItems: CHAPTERS_MAX, description: 'Replaces the chapters ([] removes them)' })
  @Omittable()
  @IsArray({ message: 'chapters must be an array of {start, title}' })
  @ArrayMaxSize(CHAPTERS_MAX, { message: `a video has at most ${CHAPTERS_MAX} chapters` })
  @Validate(ObjectsEach)
  @ValidateNested({ each: true })
  @Type(() => ChapterInputDto)
  chapters?: ChapterInputDto[];
}

/** The fields of the body that update-video reads; the rest of the `Video` object is dropped unread. */
export const UPDATE_VIDEO_FIELDS = [
  'id', 'slug', 'title', 'atg_title', 'jtg_title', 'views', 'likes', 'featured', 'upload_date', 'thumbnail', 'url',
  'categories', 'performers', 'tags', 'chapters',
] as const satisfies readonly (keyof UpdateVideoDto)[];

/** `{ id }` of the `Video` object that delete-video receives; every other field is ignored. */
export class DeleteVideoDto {
  @ApiProperty({ minimum: 1, example: 42, description: 'The rest of the Video object is accepted and ignored' })
  @IsInt(positiveId)
  @Min(1, positiveId)
  @Max(MAX_ID, positiveId)
  id: number;
}

export const DELETE_VIDEO_FIELDS = ['id'] as const satisfies readonly (keyof DeleteVideoDto)[];

export class UpdatedVideoDto {
  @ApiProperty({ type: VideoDto, description: 'The video as GET /api/videos/{id} answers it' }) data: VideoDto;
  @ApiProperty({ type: String, nullable: true, enum: [null], example: null, description: 'Always null' }) error: null;
}
