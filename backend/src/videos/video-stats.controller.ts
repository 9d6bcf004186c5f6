import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { parseId } from '../common/pipes/parse-id.pipe';
import { VideoStatsDto, VideoStatsQuery } from './dto/video-stats.dto';
import { VideoStatsService } from './video-stats.service';
import { ApiAdmin, ApiError } from '../openapi/openapi.decorators';

/** A video's statistics in the admin panel (docs/decisions.md › "Statistics"). Admins only. */
@ApiTags('admin')
@ApiAdmin()
@Roles('admin')
@Controller('admin/videos')
export class VideoStatsController {
  constructor(private readonly stats: VideoStatsService) {}

  @Get(':id/stats')
  @ApiOperation({ summary: 'A video’s statistics over the last days' })
  @ApiOkResponse({ type: VideoStatsDto })
  @ApiError(400, 'id is not a positive integer, or days is not 7, 30 or 90')
  @ApiError(404, 'Video not found')
  videoStats(@Param('id', parseId()) id: number, @Query() query: VideoStatsQuery): Promise<VideoStatsDto> {
    return this.stats.stats(id, query.days);
  }
}
