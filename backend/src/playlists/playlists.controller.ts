import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Put } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { parseId } from '../common/pipes/parse-id.pipe';
import {
  AddToPlaylistDto,
  CreatedPlaylistDto,
  CreatePlaylistDto,
  NoErrorDto,
  PlaylistDto,
  PlaylistListDto,
  PlaylistVideosDto,
  ReorderPlaylistDto,
  UpdatePlaylistDto,
} from './dto/playlist.dto';
import { PlaylistsService } from './playlists.service';
import { PlaylistsErrorCode } from './playlists-errors';
import { ApiError, ApiMember } from '../openapi/openapi.decorators';

/** A playlist is its owner's alone: every route is signed in, and the owner always comes from the token. */
@ApiTags('playlists')
@ApiMember()
@Controller('playlists')
export class PlaylistsController {
  constructor(private readonly playlists: PlaylistsService) {}

  @Get('get-user-playlists')
  @ApiOperation({ summary: 'The caller’s playlists' })
  @ApiOkResponse({ type: PlaylistListDto })
  list(@CurrentUser() user: AuthUser): Promise<PlaylistListDto> {
    return this.playlists.list(user);
  }

  @Post('create-playlist')
  @ApiOperation({ summary: 'Create a playlist with a first video' })
  @ApiCreatedResponse({ type: CreatedPlaylistDto })
  @ApiError(400, 'Missing or invalid title')
  @ApiError(403, "user_id is not the caller's")
  @ApiError(404, 'Video not found')
  @ApiError(409, 'errorCode 23505: the caller already has a playlist with this title', [PlaylistsErrorCode.AlreadyExists])
  create(@CurrentUser() user: AuthUser, @Body() dto: CreatePlaylistDto): Promise<CreatedPlaylistDto> {
    return this.playlists.create(user, dto);
  }

  @Post('add-to-playlist')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Add a video to one of the caller’s playlists' })
  @ApiOkResponse({ type: NoErrorDto })
  @ApiError(403, "Another user's playlist, or playlistUserId is not the caller's")
  @ApiError(404, 'Playlist not found, or Video not found')
  @ApiError(409, 'errorCode 23505: Video is already in playlist', [PlaylistsErrorCode.AlreadyExists])
  addVideo(@CurrentUser() user: AuthUser, @Body() dto: AddToPlaylistDto): Promise<NoErrorDto> {
    return this.playlists.addVideo(user, dto);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A playlist of the caller’s with its videos, in order' })
  @ApiOkResponse({ type: PlaylistVideosDto })
  @ApiError(400, 'id is not a positive integer')
  @ApiError(403, "Another user's playlist")
  @ApiError(404, 'Playlist not found')
  findOne(@CurrentUser() user: AuthUser, @Param('id', parseId()) id: number): Promise<PlaylistVideosDto> {
    return this.playlists.findOne(user, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a playlist' })
  @ApiOkResponse({ type: PlaylistDto })
  @ApiError(400, 'Missing or invalid title')
  @ApiError(403, "Another user's playlist")
  @ApiError(404, 'Playlist not found')
  @ApiError(409, 'errorCode 23505: the caller already has a playlist with this title', [PlaylistsErrorCode.AlreadyExists])
  rename(@CurrentUser() user: AuthUser, @Param('id', parseId()) id: number, @Body() dto: UpdatePlaylistDto): Promise<PlaylistDto> {
    return this.playlists.rename(user, id, dto.title);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete a playlist' })
  @ApiNoContentResponse({ description: 'Deleted with its items' })
  @ApiError(403, "Another user's playlist")
  @ApiError(404, 'Playlist not found')
  remove(@CurrentUser() user: AuthUser, @Param('id', parseId()) id: number): Promise<void> {
    return this.playlists.remove(user, id);
  }

  @Delete(':id/videos/:videoId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Take a video out of a playlist' })
  @ApiNoContentResponse({ description: 'Removed from the playlist' })
  @ApiError(403, "Another user's playlist")
  @ApiError(404, 'Playlist not found, or the video is not in it')
  removeVideo(
    @CurrentUser() user: AuthUser,
    @Param('id', parseId()) id: number,
    @Param('videoId', parseId('videoId')) videoId: number,
  ): Promise<void> {
    return this.playlists.removeVideo(user, id, videoId);
  }

  @Put(':id/order')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Put a playlist’s videos in a new order' })
  @ApiNoContentResponse({ description: 'Reordered' })
  @ApiError(400, 'video_ids is not a permutation of the videos the playlist shows')
  @ApiError(403, "Another user's playlist")
  @ApiError(404, 'Playlist not found')
  reorder(@CurrentUser() user: AuthUser, @Param('id', parseId()) id: number, @Body() dto: ReorderPlaylistDto): Promise<void> {
    return this.playlists.reorder(user, id, dto.video_ids);
  }
}
