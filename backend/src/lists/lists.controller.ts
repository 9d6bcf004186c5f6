import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { BookmarkListDto, BookmarkStateDto, ListActionDto, UserIdDto, WatchedVideoDto, WatchLaterStateDto } from './dto/watch-page.dto';
import { ListsService } from './lists.service';
import { ApiError, ApiMember } from '../openapi/openapi.decorators';

/** The watch page's calls on the signed-in user's lists, under the specification's paths. */
@ApiTags('lists')
@ApiMember()
@ApiError(403, "userId is not the caller's")
@Controller('video')
export class ListsController {
  constructor(private readonly lists: ListsService) {}

  @Post('add-history')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Record a watched video in the history' })
  @ApiNoContentResponse({ description: 'Recorded, or nothing to record while history is paused' })
  @ApiError(404, 'Video not found')
  addHistory(@CurrentUser() user: AuthUser, @Body() dto: WatchedVideoDto): Promise<void> {
    return this.lists.addHistory(user, dto);
  }

  @Post('get-bookmarks')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'The caller’s bookmarks, newest first' })
  @ApiOkResponse({ type: BookmarkListDto })
  getBookmarks(@CurrentUser() user: AuthUser, @Body() dto: UserIdDto): Promise<BookmarkListDto> {
    return this.lists.bookmarks(user, dto);
  }

  @Post('add-to-bookmarks')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Bookmark a video, or drop the bookmark' })
  @ApiOkResponse({ type: BookmarkStateDto })
  @ApiError(404, 'Video not found (create only)')
  addToBookmarks(@CurrentUser() user: AuthUser, @Body() dto: ListActionDto): Promise<BookmarkStateDto> {
    return this.lists.setBookmark(user, dto);
  }

  @Post('add-to-watch-later')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Queue a video to watch later, or take it out' })
  @ApiOkResponse({ type: WatchLaterStateDto })
  @ApiError(404, 'Video not found (create only)')
  addToWatchLater(@CurrentUser() user: AuthUser, @Body() dto: ListActionDto): Promise<WatchLaterStateDto> {
    return this.lists.setWatchLater(user, dto);
  }
}
