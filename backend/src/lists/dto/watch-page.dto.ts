import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsOptional, IsString } from 'class-validator';
import { VideoIdDto } from '../../common/dto/video-id.dto';
import { VideoCardDto } from '../../videos/dto/video.dto';

export const LIST_ACTIONS = ['create', 'delete'] as const;
export type ListAction = (typeof LIST_ACTIONS)[number];

/** `{ userId? }`: the specification's client names the user; the token decides, a different id is a 403. */
export class UserIdDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Must be the caller's own id when sent" })
  @IsOptional()
  @IsString()
  userId?: string;
}

/** `{ videoId, userId?, video? }`. */
export class WatchedVideoDto extends VideoIdDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Must be the caller's own id when sent" })
  @IsOptional()
  @IsString()
  userId?: string;

  @ApiPropertyOptional({ type: Object, description: 'The video as the client holds it: accepted and ignored' })
  @IsOptional()
  @Allow()
  video?: unknown;
}

/** `{ videoId, userId?, video?, action }` for bookmarks and the watch-later queue. */
export class ListActionDto extends WatchedVideoDto {
  @ApiProperty({ enum: LIST_ACTIONS })
  @IsIn(LIST_ACTIONS, { message: 'action must be "create" or "delete"' })
  action: ListAction;
}

export class BookmarkListDto {
  @ApiProperty({ type: [VideoCardDto], description: 'Newest first' }) bookmarks: VideoCardDto[];
  @ApiProperty({ type: String, nullable: true, example: null }) error: null;
}

export class BookmarkStateDto {
  @ApiProperty() bookmarked: boolean;
  @ApiProperty({ type: String, nullable: true, example: null }) error: null;
}

export class WatchLaterStateDto {
  @ApiProperty() queued: boolean;
  @ApiProperty({ type: String, nullable: true, example: null }) error: null;
}
