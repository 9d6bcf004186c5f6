import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, Validate, type ValidationArguments, ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import {
  DURATION_FILTER_MAX, EXCLUDE_MAX, LISTING_QUALITIES, parseExclude, type ListingQuality, SEARCH_QUERY_MAX_LENGTH, UPLOADED_WINDOWS, type UploadedWithin,
} from '@hunktube/shared';

export const VIDEO_SORTS = ['newest', 'most-viewed', 'top-rated', 'trending', 'longest'] as const;
export type VideoSort = (typeof VIDEO_SORTS)[number];

export const MAX_PAGE = 10_000;

export class PageQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'page must be a whole number' })
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;

  @ApiPropertyOptional({ minimum: 1, maximum: 60, default: 24 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1)
  @Max(60)
  limit: number = 24;
}

const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/** `exclude` must read as topics by kind (parseExclude). */
@ValidatorConstraint({ name: 'excludeList' })
class ExcludeList implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseExclude(value) !== null;
  }

  defaultMessage(): string {
    return `exclude must be a comma-separated list of category:ID, performer:ID or tag:ID (ids are slugs), at most ${EXCLUDE_MAX}`;
  }
}

/** `exclude`: topics left out, as a guest's browser sends its hidden topics (a member's are applied as well). */
function ExcludeProperty() {
  return applyDecorators(
    ApiPropertyOptional({
      example: 'category:bears,performer:ace-cruz',
      description: `Leaves out the videos of these categories, performers and tags: comma-separated category:ID, performer:ID or tag:ID, at most ${EXCLUDE_MAX}`,
    }),
    IsOptional(),
    Validate(ExcludeList),
  );
}

/** A duration range must not end before it starts (which would list nothing, and is a mistake in the address). */
@ValidatorConstraint({ name: 'notBelowMinDuration' })
class NotBelowMinDuration implements ValidatorConstraintInterface {
  validate(max: unknown, { object }: ValidationArguments): boolean {
    const { minDuration } = object as { minDuration?: unknown };
    return typeof max !== 'number' || typeof minDuration !== 'number' || max >= minDuration;
  }

  defaultMessage(): string {
    return 'maxDuration must not be below minDuration';
  }
}

export class ListVideosQuery extends PageQuery {
  @ApiPropertyOptional({ enum: VIDEO_SORTS, default: 'newest' })
  @IsOptional()
  @IsIn(VIDEO_SORTS, { message: `sort must be one of: ${VIDEO_SORTS.join(', ')}` })
  sort: VideoSort = 'newest';

  @ApiPropertyOptional({ description: 'Category id (slug)' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  category?: string;

  @ApiPropertyOptional({ description: 'Performer id (slug)' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  performer?: string;

  @ApiPropertyOptional({ description: 'Tag id (slug); a synonym answers as the tag it was merged into' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  tag?: string;

  @ApiPropertyOptional({ description: 'Full-text search over the three titles' })
  @IsOptional()
  @IsString()
  @MaxLength(SEARCH_QUERY_MAX_LENGTH)
  q?: string;

  @ApiPropertyOptional({ description: 'true: only featured videos; false: only the others' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'featured must be true or false' })
  featured?: boolean;

  @ApiPropertyOptional({ minimum: 0, maximum: DURATION_FILTER_MAX, description: 'Only videos at least this many seconds long (unknown durations are left out)' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'minDuration must be a whole number of seconds' })
  @Min(0)
  @Max(DURATION_FILTER_MAX)
  minDuration?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: DURATION_FILTER_MAX, description: 'Only videos at most this many seconds long (unknown durations are left out); not below minDuration' })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'maxDuration must be a whole number of seconds' })
  @Min(0)
  @Max(DURATION_FILTER_MAX)
  @Validate(NotBelowMinDuration)
  maxDuration?: number;

  @ApiPropertyOptional({ enum: LISTING_QUALITIES, description: "hd: the tallest rendition is at least 720 lines; 4k: at least 2160" })
  @IsOptional()
  @IsIn(LISTING_QUALITIES, { message: `quality must be one of: ${LISTING_QUALITIES.join(', ')}` })
  quality?: ListingQuality;

  @ApiPropertyOptional({ enum: UPLOADED_WINDOWS, description: 'Uploaded within the last 24 hours, 7, 30 or 365 days' })
  @IsOptional()
  @IsIn(UPLOADED_WINDOWS, { message: `uploaded must be one of: ${UPLOADED_WINDOWS.join(', ')}` })
  uploaded?: UploadedWithin;

  @ExcludeProperty()
  exclude?: string;
}

/** `exclude` alone: the related row and the cards by id leave these topics out too (a guest's hidden topics). */
export class ExcludeQuery {
  @ExcludeProperty()
  exclude?: string;
}
