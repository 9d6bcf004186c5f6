import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { DashboardService } from './dashboard.service';
import { VideoStatsQuery } from '../videos/dto/video-stats.dto';
import { DashboardDto } from './dto/dashboard.dto';
import { ApiAdmin, ApiError } from '../openapi/openapi.decorators';

/** The site dashboard (docs/decisions.md › "Dashboard"). Admins only. */
@ApiTags('admin')
@ApiAdmin()
@Roles('admin')
@Controller('admin/dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get()
  @ApiOperation({ summary: 'The site dashboard over the last days' })
  @ApiOkResponse({ type: DashboardDto })
  @ApiError(400, 'days is not 7, 30 or 90')
  read(@Query() query: VideoStatsQuery): Promise<DashboardDto> {
    return this.dashboard.dashboard(query.days);
  }
}
