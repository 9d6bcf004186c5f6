import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, MaxLength, Min } from 'class-validator';
import { VIDEO_TITLE_MAX_LENGTH, VIDEO_TITLE_MIN_LENGTH } from '@hunktube/shared';

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
}

export class UploadAcceptedDto {
  @ApiProperty() id: number;
  @ApiProperty() job_id: number;
}
