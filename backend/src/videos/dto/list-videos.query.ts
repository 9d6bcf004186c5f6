import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { SEARCH_QUERY_MAX_LENGTH } from '@hunktube/shared';

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
}
