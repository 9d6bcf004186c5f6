import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_ID } from '../../common/dto/video-id.dto';
import { VideoCardDto } from '../../videos/dto/video.dto';
import { PLAYLIST_TITLE_MAX_LENGTH, PLAYLIST_TITLE_MIN_LENGTH } from '@hunktube/shared';

const positiveId = (name: string) => ({ message: `${name} must be a positive integer` });

/**
 * Required, but a missing or null title is left to the service, which answers the rule's own message
 * ("You need to give your new playlist a title") rather than a generic one.
 */
const TitleProperty = () =>
  applyDecorators(
    ApiProperty({ minLength: PLAYLIST_TITLE_MIN_LENGTH, maxLength: PLAYLIST_TITLE_MAX_LENGTH, description: 'Trimmed; see playlist-title.ts' }),
    IsOptional(),
    IsString({ message: 'title must be a string' }),
  );

export class CreatePlaylistDto {
  @ApiProperty({ minimum: 1, description: 'The first video of the new playlist' })
  @IsInt(positiveId('video_id'))
  @Min(1, positiveId('video_id'))
  @Max(MAX_ID, positiveId('video_id'))
  video_id: number;

  @TitleProperty()
  title?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Must be the caller's own id when sent" })
  @IsOptional()
  @IsString()
  user_id?: string;

  @ApiPropertyOptional({ maxLength: 40, description: 'Accepted and ignored' })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  display_name?: string;
}

export class AddToPlaylistDto {
  @ApiProperty({ minimum: 1 })
  @IsInt(positiveId('video_id'))
  @Min(1, positiveId('video_id'))
  @Max(MAX_ID, positiveId('video_id'))
  video_id: number;

  @ApiProperty({ minimum: 1 })
  @IsInt(positiveId('playlist_id'))
  @Min(1, positiveId('playlist_id'))
  @Max(MAX_ID, positiveId('playlist_id'))
  playlist_id: number;

  @ApiPropertyOptional({ format: 'uuid', description: "The playlist owner's id as the client knows it: must be the caller's" })
  @IsOptional()
  @IsString()
  playlistUserId?: string;
}

export class UpdatePlaylistDto {
  @TitleProperty()
  title?: string;
}

export class ReorderPlaylistDto {
  @ApiProperty({ type: [Number], description: 'Every video the playlist shows, each once, in the new order' })
  @IsArray({ message: 'video_ids must be an array' })
  @IsInt({ each: true, message: 'each value in video_ids must be a positive integer' })
  @Min(1, { each: true, message: 'each value in video_ids must be a positive integer' })
  @Max(MAX_ID, { each: true, message: 'each value in video_ids must be a positive integer' })
  @ArrayUnique({ message: 'video_ids must not contain duplicates' })
  video_ids: number[];
}

export class PlaylistRefDto {
  @ApiProperty() playlist_id: number;
  @ApiProperty() title: string;
  @ApiProperty({ format: 'uuid' }) user_id: string;
}

export class PlaylistSummaryDto extends PlaylistRefDto {
  @ApiProperty({ description: 'Published videos in the playlist' }) video_count: number;
  @ApiProperty({ type: String, nullable: true, description: "The first video's thumbnail, in playlist order" })
  thumbnail: string | null;
}

export class PlaylistListDto {
  @ApiProperty({ type: [PlaylistSummaryDto], description: 'Most recently changed first' }) data: PlaylistSummaryDto[];
  @ApiProperty({ type: String, nullable: true, example: null }) error: null;
}

export class CreatedPlaylistDto {
  @ApiProperty({ type: PlaylistRefDto }) data: PlaylistRefDto;
  @ApiProperty({ type: String, nullable: true, example: null }) error: null;
}

export class PlaylistDto {
  @ApiProperty({ type: PlaylistRefDto }) playlist: PlaylistRefDto;
}

export class PlaylistVideosDto extends PlaylistDto {
  @ApiProperty({ type: [VideoCardDto], description: 'In playlist order' }) data: VideoCardDto[];
}

export { NoErrorDto } from '../../common/dto/no-error.dto';
