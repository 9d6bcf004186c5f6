import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { CAPTIONS_MAX_BYTES } from '../../media/captions/captions-text';

export const CAPTION_LABEL_MAX_LENGTH = 60;

/** The multipart fields besides `file`. */
export class UploadCaptionsDto {
  @ApiProperty({ maxLength: 35, example: 'en', description: 'BCP 47 language tag (en, pt-BR, zh-Hant); stored in its canonical case' })
  @IsString({ message: 'lang must be a string' })
  @MaxLength(35, { message: 'lang must be at most 35 characters long' })
  lang: string;

  @ApiPropertyOptional({ maxLength: CAPTION_LABEL_MAX_LENGTH, example: 'English', description: "The CC menu's name for it; the language's English name when left out" })
  @IsOptional()
  @IsString({ message: 'label must be a string' })
  @MaxLength(CAPTION_LABEL_MAX_LENGTH, { message: `label must be at most ${CAPTION_LABEL_MAX_LENGTH} characters long` })
  label?: string;
}

/** The multipart body as OpenAPI documents it. */
export const UPLOAD_CAPTIONS_BODY = {
  schema: {
    type: 'object' as const,
    required: ['file', 'lang'],
    properties: {
      file: { type: 'string' as const, format: 'binary', description: `WebVTT or SRT, UTF-8; at most ${CAPTIONS_MAX_BYTES / 1024} kB` },
      lang: { type: 'string' as const, maxLength: 35, example: 'en' },
      label: { type: 'string' as const, maxLength: CAPTION_LABEL_MAX_LENGTH, example: 'English' },
    },
  },
};
