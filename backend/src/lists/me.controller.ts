import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { PageQuery } from '../videos/dto/list-videos.query';
import { VideoCardPageDto } from '../videos/dto/video.dto';
import { HistoryPageDto, HistoryPausedDto } from './dto/me.dto';
import { ListsService } from './lists.service';

/** The signed-in user's own lists, newest first, published videos only. */
@ApiTags('lists')
@ApiBearerAuth()
@Controller('me')
export class MeController {
  constructor(private readonly lists: ListsService) {}

  @Get('watch-later')
  @ApiOkResponse({ type: VideoCardPageDto })
  watchLater(@CurrentUser() user: AuthUser, @Query() query: PageQuery): Promise<VideoCardPageDto> {
    return this.lists.page('watchLater', user, query);
  }

  @Get('likes')
  @ApiOkResponse({ type: VideoCardPageDto })
  likes(@CurrentUser() user: AuthUser, @Query() query: PageQuery): Promise<VideoCardPageDto> {
    return this.lists.page('likes', user, query);
  }

  @Get('bookmarks')
  @ApiOkResponse({ type: VideoCardPageDto })
  bookmarks(@CurrentUser() user: AuthUser, @Query() query: PageQuery): Promise<VideoCardPageDto> {
    return this.lists.page('bookmarks', user, query);
  }

  @Get('history')
  @ApiOkResponse({ type: HistoryPageDto })
  history(@CurrentUser() user: AuthUser, @Query() query: PageQuery): Promise<HistoryPageDto> {
    return this.lists.historyPage(user, query);
  }

  @Delete('history')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'History cleared' })
  clearHistory(@CurrentUser() user: AuthUser): Promise<void> {
    return this.lists.clearHistory(user);
  }

  @Get('history/paused')
  @ApiOkResponse({ type: HistoryPausedDto, description: 'Whether history recording is paused' })
  historyPaused(@CurrentUser() user: AuthUser): HistoryPausedDto {
    return { paused: user.historyPaused };
  }

  @Put('history/paused')
  @ApiOkResponse({ type: HistoryPausedDto })
  setHistoryPaused(@CurrentUser() user: AuthUser, @Body() dto: HistoryPausedDto): Promise<HistoryPausedDto> {
    return this.lists.setHistoryPaused(user, dto.paused);
  }
}
