import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { parseId } from '../common/pipes/parse-id.pipe';
import { VideoStatsDto, VideoStatsQuery } from './dto/video-stats.dto';
import { VideoStatsService } from './video-stats.service';

/** A video's statistics in the admin panel (README › "Statistics"). Admins only. */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@ApiUnauthorizedResponse({ description: 'Not signed in' })
@ApiForbiddenResponse({ description: 'Not an admin' })
@Controller('admin/videos')
export class VideoStatsController {
  constructor(private readonly stats: VideoStatsService) {}

  @Get(':id/stats')
  @ApiOkResponse({ type: VideoStatsDto })
  @ApiNotFoundResponse({ description: 'Video not found' })
  videoStats(@Param('id', parseId()) id: number, @Query() query: VideoStatsQuery): Promise<VideoStatsDto> {
    return this.stats.stats(id, query.days);
  }
}
