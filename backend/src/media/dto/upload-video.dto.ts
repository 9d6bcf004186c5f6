import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, MaxLength, Min } from 'class-validator';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);
const list = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : value;

/** The text fields of a video upload (multipart). */
export class UploadVideoDto {
  @ApiProperty({ maxLength: 300 })
  @Transform(trim)
  @IsString()
  @Length(1, 300, { message: 'title must be 1 to 300 characters long' })
  title: string;

  @ApiPropertyOptional({ maxLength: 300 })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(300)
  atg_title?: string;

  @ApiPropertyOptional({ maxLength: 300 })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @MaxLength(300)
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
