import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';

export const MAX_ID = 2_147_483_647;

/** `{ videoId }`: a positive integer id. */
export class VideoIdDto {
  @ApiProperty({ minimum: 1, example: 42 })
  @IsInt({ message: 'videoId must be a positive integer' })
  @Min(1, { message: 'videoId must be a positive integer' })
  @Max(MAX_ID, { message: 'videoId must be a positive integer' })
  videoId: number;
}
