import { Controller, Get, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type AuthUser, CurrentUser, Public } from '../common/decorators/auth.decorators';
import { PerMember } from '../common/http/per-member';
import { PublicCache } from '../common/http/http-caching';
import { StaleReadsInterceptor } from '../common/http/stale-reads';
import { parseId } from '../common/pipes/parse-id.pipe';
import { ExcludeQuery, ListVideosQuery } from './dto/list-videos.query';
import { RelatedVideosDto, VideoCardPageDto, VideoDto } from './dto/video.dto';
import { VideosService } from './videos.service';
import { ApiError, ApiPublic } from '../openapi/openapi.decorators';

@ApiTags('catalogue')
@ApiPublic()
@Public()
@PublicCache()
@UseInterceptors(StaleReadsInterceptor)
@Controller('videos')
export class VideosController {
  constructor(private readonly videos: VideosService) {}

  @Get()
  @ApiOperation({ summary: "Published videos: sorted, filtered, searched, a page at a time (a member's hidden topics left out)" })
  @ApiResponse({ status: 200, type: VideoCardPageDto })
  @ApiError(400, 'An unknown sort, filter value or query parameter, or a page or limit out of its limits')
  @PerMember()
  list(@Query() query: ListVideosQuery, @CurrentUser() user: AuthUser | null): Promise<VideoCardPageDto> {
    return this.videos.list(query, user?.id);
  }

  @Get(':id')
  @ApiOperation({ summary: 'A published video' })
  @ApiResponse({ status: 200, type: VideoDto })
  @ApiError(400, 'id is not a positive integer')
  @ApiError(404, 'Video not found')
  findOne(@Param('id', parseId()) id: number): Promise<VideoDto> {
    return this.videos.findOne(id);
  }

  @Get(':id/related')
  @ApiOperation({ summary: "Videos related to a video, or hot ones when none is (a member's hidden topics left out)" })
  @ApiResponse({ status: 200, type: RelatedVideosDto })
  @ApiError(400, 'id is not a positive integer')
  @ApiError(404, 'Video not found')
  @PerMember()
  related(@Param('id', parseId()) id: number, @Query() query: ExcludeQuery, @CurrentUser() user: AuthUser | null): Promise<RelatedVideosDto> {
    return this.videos.related(id, user?.id, query.exclude);
  }
}
