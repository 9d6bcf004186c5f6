import { Body, Controller, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { BookmarkListDto, BookmarkStateDto, ListActionDto, UserIdDto, WatchedVideoDto, WatchLaterStateDto } from './dto/watch-page.dto';
import { ListsService } from './lists.service';

/** The watch page's calls on the signed-in user's lists, under the specification's paths. */
@ApiTags('lists')
@ApiBearerAuth()
@ApiForbiddenResponse({ description: "userId is not the caller's" })
@Controller('video')
export class ListsController {
  constructor(private readonly lists: ListsService) {}

  @Post('add-history')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'Recorded, or nothing to record while history is paused' })
  @ApiNotFoundResponse({ description: 'Video not found' })
  addHistory(@CurrentUser() user: AuthUser, @Body() dto: WatchedVideoDto): Promise<void> {
    return this.lists.addHistory(user, dto);
  }

  @Post('get-bookmarks')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: BookmarkListDto })
  getBookmarks(@CurrentUser() user: AuthUser, @Body() dto: UserIdDto): Promise<BookmarkListDto> {
    return this.lists.bookmarks(user, dto);
  }

  @Post('add-to-bookmarks')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: BookmarkStateDto })
  @ApiNotFoundResponse({ description: 'Video not found (create only)' })
  addToBookmarks(@CurrentUser() user: AuthUser, @Body() dto: ListActionDto): Promise<BookmarkStateDto> {
    return this.lists.setBookmark(user, dto);
  }

  @Post('add-to-watch-later')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: WatchLaterStateDto })
  @ApiNotFoundResponse({ description: 'Video not found (create only)' })
  addToWatchLater(@CurrentUser() user: AuthUser, @Body() dto: ListActionDto): Promise<WatchLaterStateDto> {
    return this.lists.setWatchLater(user, dto);
  }
}
