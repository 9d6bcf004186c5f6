import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiOkResponse, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { DashboardService } from './dashboard.service';
import { VideoStatsQuery } from '../videos/dto/video-stats.dto';
import { DashboardDto } from './dto/dashboard.dto';

/** The site dashboard (README › "Dashboard"). Admins only. */
@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@ApiUnauthorizedResponse({ description: 'Not signed in' })
@ApiForbiddenResponse({ description: 'Not an admin' })
@Controller('admin/dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get()
  @ApiOkResponse({ type: DashboardDto })
  read(@Query() query: VideoStatsQuery): Promise<DashboardDto> {
    return this.dashboard.dashboard(query.days);
  }
}
