import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Put, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { PageQuery } from '../videos/dto/list-videos.query';
import { VideoCardPageDto } from '../videos/dto/video.dto';
import { HistoryPageDto, HistoryPausedDto } from './dto/me.dto';
import { ListsService } from './lists.service';
import { ApiMember } from '../openapi/openapi.decorators';

/** The signed-in user's own lists, newest first, published videos only. */
@ApiTags('lists')
@ApiMember()
@Controller('me')
export class MeController {
  constructor(private readonly lists: ListsService) {}

  @Get('watch-later')
  @ApiOperation({ summary: 'The caller’s watch-later queue, newest first' })
  @ApiOkResponse({ type: VideoCardPageDto })
  watchLater(@CurrentUser() user: AuthUser, @Query() query: PageQuery): Promise<VideoCardPageDto> {
    return this.lists.page('watchLater', user, query);
  }

  @Get('likes')
  @ApiOperation({ summary: 'The videos the caller likes, newest like first' })
  @ApiOkResponse({ type: VideoCardPageDto })
  likes(@CurrentUser() user: AuthUser, @Query() query: PageQuery): Promise<VideoCardPageDto> {
    return this.lists.page('likes', user, query);
  }

  @Get('bookmarks')
  @ApiOperation({ summary: 'The caller’s bookmarks, a page at a time' })
  @ApiOkResponse({ type: VideoCardPageDto })
  bookmarks(@CurrentUser() user: AuthUser, @Query() query: PageQuery): Promise<VideoCardPageDto> {
    return this.lists.page('bookmarks', user, query);
  }

  @Get('history')
  @ApiOperation({ summary: 'The caller’s watch history, last watched first' })
  @ApiOkResponse({ type: HistoryPageDto })
  history(@CurrentUser() user: AuthUser, @Query() query: PageQuery): Promise<HistoryPageDto> {
    return this.lists.historyPage(user, query);
  }

  @Delete('history')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Clear the caller’s history' })
  @ApiNoContentResponse({ description: 'History cleared' })
  clearHistory(@CurrentUser() user: AuthUser): Promise<void> {
    return this.lists.clearHistory(user);
  }

  @Get('history/paused')
  @ApiOperation({ summary: 'Whether the caller’s history recording is paused' })
  @ApiOkResponse({ type: HistoryPausedDto, description: 'Whether history recording is paused' })
  historyPaused(@CurrentUser() user: AuthUser): HistoryPausedDto {
    return { paused: user.historyPaused };
  }

  @Put('history/paused')
  @ApiOperation({ summary: 'Pause or resume the caller’s history recording' })
  @ApiOkResponse({ type: HistoryPausedDto })
  setHistoryPaused(@CurrentUser() user: AuthUser, @Body() dto: HistoryPausedDto): Promise<HistoryPausedDto> {
    return this.lists.setHistoryPaused(user, dto.paused);
  }
}
