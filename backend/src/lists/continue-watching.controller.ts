import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { parseId } from '../common/pipes/parse-id.pipe';
import { ContinueWatchingService } from './continue-watching.service';
import { ApiError, ApiMember } from '../openapi/openapi.decorators';
import { ContinueWatchingDto, ContinueWatchingQuery, ResumePositionDto, ResumePositionStateDto } from './dto/continue-watching.dto';

/** Resume positions and the home page's Continue watching row (docs/decisions.md › "Continue watching"). Members only. */
@ApiTags('lists')
@ApiMember()
@Controller('me')
export class ContinueWatchingController {
  constructor(private readonly positions: ContinueWatchingService) {}

  @Get('continue-watching')
  @ApiOperation({ summary: 'The caller’s Continue watching row' })
  @ApiOkResponse({ type: ContinueWatchingDto })
  list(@CurrentUser() user: AuthUser, @Query() query: ContinueWatchingQuery): Promise<ContinueWatchingDto> {
    return this.positions.list(user, query.limit);
  }

  @Put('history/:videoId/position')
  @ApiParam({ name: 'videoId', example: 42 })
  @ApiOperation({ summary: 'Record where the caller is in a video' })
  @ApiOkResponse({ type: ResumePositionStateDto, description: 'Recorded (the video moves to the top of the history), or not while history is paused' })
  @ApiError(400, 'Not a video id, or not a position')
  @ApiError(404, 'Video not found')
  save(
    @CurrentUser() user: AuthUser,
    @Param('videoId', parseId('videoId')) videoId: number,
    @Body() dto: ResumePositionDto,
  ): Promise<ResumePositionStateDto> {
    return this.positions.save(user, videoId, dto.position);
  }

  @Delete('continue-watching/:videoId')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiParam({ name: 'videoId', example: 42 })
  @ApiOperation({ summary: 'Take a video out of the Continue watching row' })
  @ApiNoContentResponse({ description: 'Out of the row (idempotent); the video stays in the history' })
  @ApiError(400, 'Not a video id')
  forget(@CurrentUser() user: AuthUser, @Param('videoId', parseId('videoId')) videoId: number): Promise<void> {
    return this.positions.forget(user, videoId);
  }
}
