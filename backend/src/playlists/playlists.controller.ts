import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Patch, Post, Put } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
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

/** A playlist is its owner's alone: every route is signed in, and the owner always comes from the token. */
@ApiTags('playlists')
@ApiBearerAuth()
@Controller('playlists')
export class PlaylistsController {
  constructor(private readonly playlists: PlaylistsService) {}

  @Get('get-user-playlists')
  @ApiOkResponse({ type: PlaylistListDto })
  list(@CurrentUser() user: AuthUser): Promise<PlaylistListDto> {
    return this.playlists.list(user);
  }

  @Post('create-playlist')
  @ApiCreatedResponse({ type: CreatedPlaylistDto })
  @ApiBadRequestResponse({ description: 'Missing or invalid title' })
  @ApiForbiddenResponse({ description: "user_id is not the caller's" })
  @ApiNotFoundResponse({ description: 'Video not found' })
  @ApiConflictResponse({ description: 'The caller already has a playlist with this title (errorCode 23505)' })
  create(@CurrentUser() user: AuthUser, @Body() dto: CreatePlaylistDto): Promise<CreatedPlaylistDto> {
    return this.playlists.create(user, dto);
  }

  @Post('add-to-playlist')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: NoErrorDto })
  @ApiForbiddenResponse({ description: "Another user's playlist, or playlistUserId is not the caller's" })
  @ApiNotFoundResponse({ description: 'Playlist not found, or Video not found' })
  @ApiConflictResponse({ description: 'Video is already in playlist (errorCode 23505)' })
  addVideo(@CurrentUser() user: AuthUser, @Body() dto: AddToPlaylistDto): Promise<NoErrorDto> {
    return this.playlists.addVideo(user, dto);
  }

  @Get(':id')
  @ApiOkResponse({ type: PlaylistVideosDto })
  @ApiForbiddenResponse({ description: "Another user's playlist" })
  @ApiNotFoundResponse({ description: 'Playlist not found' })
  findOne(@CurrentUser() user: AuthUser, @Param('id', parseId()) id: number): Promise<PlaylistVideosDto> {
    return this.playlists.findOne(user, id);
  }

  @Patch(':id')
  @ApiOkResponse({ type: PlaylistDto })
  @ApiBadRequestResponse({ description: 'Missing or invalid title' })
  @ApiForbiddenResponse({ description: "Another user's playlist" })
  @ApiNotFoundResponse({ description: 'Playlist not found' })
  @ApiConflictResponse({ description: 'The caller already has a playlist with this title (errorCode 23505)' })
  rename(@CurrentUser() user: AuthUser, @Param('id', parseId()) id: number, @Body() dto: UpdatePlaylistDto): Promise<PlaylistDto> {
    return this.playlists.rename(user, id, dto.title);
  }

  @Delete(':id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'Deleted with its items' })
  @ApiForbiddenResponse({ description: "Another user's playlist" })
  @ApiNotFoundResponse({ description: 'Playlist not found' })
  remove(@CurrentUser() user: AuthUser, @Param('id', parseId()) id: number): Promise<void> {
    return this.playlists.remove(user, id);
  }

  @Delete(':id/videos/:videoId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'Removed from the playlist' })
  @ApiForbiddenResponse({ description: "Another user's playlist" })
  @ApiNotFoundResponse({ description: 'Playlist not found, or the video is not in it' })
  removeVideo(
    @CurrentUser() user: AuthUser,
    @Param('id', parseId()) id: number,
    @Param('videoId', parseId('videoId')) videoId: number,
  ): Promise<void> {
    return this.playlists.removeVideo(user, id, videoId);
  }

  @Put(':id/order')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'Reordered' })
  @ApiBadRequestResponse({ description: 'video_ids is not a permutation of the videos the playlist shows' })
  @ApiForbiddenResponse({ description: "Another user's playlist" })
  @ApiNotFoundResponse({ description: 'Playlist not found' })
  reorder(@CurrentUser() user: AuthUser, @Param('id', parseId()) id: number, @Body() dto: ReorderPlaylistDto): Promise<void> {
    return this.playlists.reorder(user, id, dto.video_ids);
  }
}
