import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsInt, IsOptional, IsString, Length, MaxLength, Min } from 'class-validator';
import { TAGS_PER_VIDEO_MAX, TAXON_NAME_MAX_LENGTH, VIDEO_TITLE_MAX_LENGTH, VIDEO_TITLE_MIN_LENGTH } from '@hunktube/shared';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const list = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;

/** The text fields of a video upload (multipart). */
export class UploadVideoDto {
  @ApiProperty({ maxLength: VIDEO_TITLE_MAX_LENGTH })
  @Transform(trim)
  @IsString()
  @Length(VIDEO_TITLE_MIN_LENGTH, VIDEO_TITLE_MAX_LENGTH, {
    message: `title must be ${VIDEO_TITLE_MIN_LENGTH} to ${VIDEO_TITLE_MAX_LENGTH} characters long`,
  })
  title: string;

  @ApiPropertyOptional({ maxLength: VIDEO_TITLE_MAX_LENGTH })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(VIDEO_TITLE_MAX_LENGTH)
  atg_title?: string;

  @ApiPropertyOptional({ maxLength: VIDEO_TITLE_MAX_LENGTH })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(VIDEO_TITLE_MAX_LENGTH)
  jtg_title?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  featured?: number;

  @ApiPropertyOptional({ description: 'Category ids, comma-separated' })
  @IsOptional()
  @Transform(list)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  categories?: string[];

  @ApiPropertyOptional({ description: 'Performer ids, comma-separated' })
  @IsOptional()
  @Transform(list)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  performers?: string[];

  @ApiPropertyOptional({ description: `Tag names, comma-separated (at most ${TAGS_PER_VIDEO_MAX}); new ones are created, synonyms and names matched as update-video does` })
  @IsOptional()
  @Transform(list)
  @IsString({ each: true })
  @ArrayMaxSize(TAGS_PER_VIDEO_MAX, { message: `a video has at most ${TAGS_PER_VIDEO_MAX} tags` })
  @MaxLength(TAXON_NAME_MAX_LENGTH, { each: true, message: `a tag must be at most ${TAXON_NAME_MAX_LENGTH} characters long` })
  tags?: string[];
}

export class UploadAcceptedDto {
  @ApiProperty() id: number;
  @ApiProperty() job_id: number;
}
