import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser, MembersOnly, Public } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { VideoIdDto } from '../common/dto/video-id.dto';
import { Client } from './counters/viewer.decorator';
import { CountersErrorCode } from './counters/counter-errors';
import type { ClientInfo } from './counters/viewer.decorator';
import { CountersService } from './counters/counters.service';
import { DurationDto, LikesDto, UpdateDurationDto, ViewsDto } from './dto/counters.dto';
import { VideosService } from './videos.service';
import { ApiError, ApiMember, ApiPublic } from '../openapi/openapi.decorators';

/** The watch page's counting calls; anyone may make them, a token only changes who is counted. */
@ApiTags('watch page')
@ApiPublic()
@Public()
@Controller('video')
export class CountersController {
  constructor(
    private readonly counters: CountersService,
    private readonly videos: VideosService,
  ) {}

  @Post('increment-views')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Count a view (once per viewer per video per hour)' })
  @ApiResponse({ status: 200, type: ViewsDto })
  @ApiError(404, 'Video not found')
  incrementViews(@Body() dto: VideoIdDto, @CurrentUser() user: AuthUser | null, @Client() client: ClientInfo): Promise<ViewsDto> {
    return this.counters.recordView(dto.videoId, this.counters.viewerOf(user, client));
  }

  @Post('add-trending')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Count a trending signal (once per viewer per video per hour)' })
  @ApiResponse({ status: 204, description: 'Counted, or already counted this hour' })
  @ApiError(404, 'Video not found')
  async addTrending(@Body() dto: VideoIdDto, @CurrentUser() user: AuthUser | null, @Client() client: ClientInfo): Promise<void> {
    await this.counters.recordTrending(dto.videoId, this.counters.viewerOf(user, client));
  }

  @Post('increment-likes')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Like a video (a member once; a guest network once a day)' })
  @ApiResponse({ status: 200, type: LikesDto })
  @ApiError(404, 'Video not found')
  @ApiError(409, 'errorCode ALREADY_LIKED: this member, or this guest network today, already likes the video', [CountersErrorCode.AlreadyLiked])
  incrementLikes(@Body() dto: VideoIdDto, @CurrentUser() user: AuthUser | null, @Client() client: ClientInfo): Promise<LikesDto> {
    return this.counters.recordLike(dto.videoId, user?.id ?? null, this.counters.viewerOf(user, client));
  }

  @Post('remove-like')
  @MembersOnly()
  @HttpCode(HttpStatus.OK)
  @ApiMember()
  @ApiOperation({ summary: 'A member takes their like back (an addition to the contract: docs/decisions.md, "Likes taken back")' })
  @ApiResponse({ status: 200, type: LikesDto })
  @ApiError(404, 'Video not found')
  @ApiError(409, 'errorCode NOT_LIKED: the member does not like this video', [CountersErrorCode.NotLiked])
  removeLike(@Body() dto: VideoIdDto, @CurrentUser() user: AuthUser): Promise<LikesDto> {
    return this.counters.removeLike(dto.videoId, user.id);
  }

  @Post('update-duration')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Set a video’s duration while it has none' })
  @ApiResponse({ status: 200, type: DurationDto })
  @ApiError(400, 'videoDuration is not over 0 and at most 86400')
  @ApiError(404, 'Video not found')
  updateDuration(@Body() dto: UpdateDurationDto): Promise<DurationDto> {
    return this.videos.updateDuration(dto.videoId, dto.videoDuration);
  }
}

