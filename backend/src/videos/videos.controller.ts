import { Controller, Get, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { PublicCache } from '../common/http/http-caching';
import { StaleReadsInterceptor } from '../common/http/stale-reads';
import { parseId } from '../common/pipes/parse-id.pipe';
import { ListVideosQuery } from './dto/list-videos.query';
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
  @ApiOperation({ summary: 'Published videos: sorted, filtered, searched, a page at a time' })
  @ApiResponse({ status: 200, type: VideoCardPageDto })
  @ApiError(400, 'An unknown sort, filter value or query parameter, or a page or limit out of its limits')
  list(@Query() query: ListVideosQuery): Promise<VideoCardPageDto> {
    return this.videos.list(query);
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
  @ApiOperation({ summary: 'Videos related to a video, or hot ones when none is' })
  @ApiResponse({ status: 200, type: RelatedVideosDto })
  @ApiError(400, 'id is not a positive integer')
  @ApiError(404, 'Video not found')
  related(@Param('id', parseId()) id: number): Promise<RelatedVideosDto> {
    return this.videos.related(id);
  }
}
