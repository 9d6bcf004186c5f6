import { Controller, Get, Query, UseInterceptors } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { MAX_ID } from '../common/dto/video-id.dto';
import { type AuthUser, CurrentUser, Public } from '../common/decorators/auth.decorators';
import { PerMember } from '../common/http/per-member';
import { PublicCache } from '../common/http/http-caching';
import { StaleReadsInterceptor } from '../common/http/stale-reads';
import { CardsQuery } from './dto/cards.query';
import { VideoCardListDto } from './dto/video.dto';
import { VideosService } from './videos.service';
import { ApiError, ApiPublic } from '../openapi/openapi.decorators';

/**
 * Cards by id, for a row the browser keeps itself (a guest's Continue watching): the published ones, in the
 * order asked, each once; ids gone or unpublished are left out, which is how the browser learns to drop them.
 */
@ApiTags('catalogue')
@ApiPublic()
@Public()
@PublicCache()
@UseInterceptors(StaleReadsInterceptor)
@Controller('cards')
export class CardsController {
  constructor(private readonly videos: VideosService) {}

  @Get()
  @ApiOperation({ summary: "Cards of published videos by id, in the order asked (without `exclude`'s topics, or a member's hidden ones)" })
  @ApiOkResponse({ type: VideoCardListDto })
  @ApiError(400, 'ids missing or not a list of video ids')
  @PerMember()
  async cards(@Query() query: CardsQuery, @CurrentUser() user: AuthUser | null): Promise<VideoCardListDto> {
    const ids = [...new Set(query.ids.split(',').map(Number))].filter((id) => id <= MAX_ID);
    return { data: await this.videos.cardsByIds(await this.videos.withoutHidden(ids, user?.id, query.exclude)) };
  }
}
