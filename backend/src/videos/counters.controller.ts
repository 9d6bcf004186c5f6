import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOperation, ApiTags, ApiResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { CurrentUser, MembersOnly, Public } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { VideoIdDto } from '../common/dto/video-id.dto';
import { Client } from './counters/viewer.decorator';
import type { ClientInfo } from './counters/viewer.decorator';
import { CountersService } from './counters/counters.service';
import { DurationDto, LikesDto, UpdateDurationDto, ViewsDto } from './dto/counters.dto';
import { VideosService } from './videos.service';

/** The watch page's counting calls; anyone may make them, a token only changes who is counted. */
@ApiTags('watch page')
@Public()
@Controller('video')
export class CountersController {
  constructor(
    private readonly counters: CountersService,
    private readonly videos: VideosService,
  ) {}

  @Post('increment-views')
  @HttpCode(HttpStatus.OK)
  @ApiNotFoundResponse({ description: 'Video not found' })
  @ApiResponse({ status: 200, type: ViewsDto })
  incrementViews(@Body() dto: VideoIdDto, @CurrentUser() user: AuthUser | null, @Client() client: ClientInfo): Promise<ViewsDto> {
    return this.counters.recordView(dto.videoId, this.counters.viewerOf(user, client));
  }

  @Post('add-trending')
  @HttpCode(HttpStatus.NO_CONTENT)
  async addTrending(@Body() dto: VideoIdDto, @CurrentUser() user: AuthUser | null, @Client() client: ClientInfo): Promise<void> {
    await this.counters.recordTrending(dto.videoId, this.counters.viewerOf(user, client));
  }

  @Post('increment-likes')
  @HttpCode(HttpStatus.OK)
  @ApiConflictResponse({ description: 'errorCode ALREADY_LIKED' })
  @ApiResponse({ status: 200, type: LikesDto })
  incrementLikes(@Body() dto: VideoIdDto, @CurrentUser() user: AuthUser | null, @Client() client: ClientInfo): Promise<LikesDto> {
    return this.counters.recordLike(dto.videoId, user?.id ?? null, this.counters.viewerOf(user, client));
  }

  @Post('remove-like')
  @MembersOnly()
  @HttpCode(HttpStatus.OK)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'A member takes their like back (an addition to the contract: README, "Likes taken back")' })
  @ApiUnauthorizedResponse({ description: 'No valid token' })
  @ApiNotFoundResponse({ description: 'Video not found' })
  @ApiConflictResponse({ description: 'errorCode NOT_LIKED: the member does not like this video' })
  @ApiResponse({ status: 200, type: LikesDto })
  removeLike(@Body() dto: VideoIdDto, @CurrentUser() user: AuthUser): Promise<LikesDto> {
    return this.counters.removeLike(dto.videoId, user.id);
  }

  @Post('update-duration')
  @HttpCode(HttpStatus.OK)
  @ApiResponse({ status: 200, type: DurationDto })
  updateDuration(@Body() dto: UpdateDurationDto): Promise<DurationDto> {
    return this.videos.updateDuration(dto.videoId, dto.videoDuration);
  }
}

