import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** The multipart fields besides `file`. */
export class UpdateThumbnailDto {
  @ApiProperty({
    maxLength: 500,
    example: '/thumbs/2024/06/pool-party/poster.jpg',
    description: 'The thumbnail URL field: a /thumbs/... path or an http(s) URL whose path is one; .jpg, .jpeg, .png, .webp or .avif',
  })
  @IsString({ message: 'uploadPath must be a string' })
  @MaxLength(500, { message: 'uploadPath must be at most 500 characters long' })
  uploadPath: string;
}

/** The multipart body as OpenAPI documents it. */
export const UPDATE_THUMBNAIL_BODY = {
  schema: {
    type: 'object' as const,
    required: ['file', 'uploadPath'],
    properties: {
      file: { type: 'string' as const, format: 'binary', description: 'JPEG, PNG, WebP or AVIF by content; at most 10 MB' },
      uploadPath: { type: 'string' as const, maxLength: 500, example: '/thumbs/2024/06/pool-party/poster.jpg' },
    },
  },
};

export class ThumbnailUrlDto {
  @ApiProperty({ example: '/thumbs/2024/06/pool-party/poster.jpg', description: 'The path of the file replaced' }) url: string;
}
