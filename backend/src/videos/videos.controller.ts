import { Controller, Get, Param, Query, UseInterceptors } from '@nestjs/common';
import { ApiNotFoundResponse, ApiTags, ApiResponse } from '@nestjs/swagger';
import { Public } from '../common/decorators/auth.decorators';
import { PublicCache } from '../common/http/http-caching';
import { StaleReadsInterceptor } from '../common/http/stale-reads';
import { parseId } from '../common/pipes/parse-id.pipe';
import { ListVideosQuery } from './dto/list-videos.query';
import { RelatedVideosDto, VideoCardPageDto, VideoDto } from './dto/video.dto';
import { VideosService } from './videos.service';

@ApiTags('catalogue')
@Public()
@PublicCache()
@UseInterceptors(StaleReadsInterceptor)
@Controller('videos')
export class VideosController {
  constructor(private readonly videos: VideosService) {}

  @Get()
  @ApiResponse({ status: 200, type: VideoCardPageDto })
  list(@Query() query: ListVideosQuery): Promise<VideoCardPageDto> {
    return this.videos.list(query);
  }

  @Get(':id')
  @ApiNotFoundResponse({ description: 'Video not found' })
  @ApiResponse({ status: 200, type: VideoDto })
  findOne(@Param('id', parseId()) id: number): Promise<VideoDto> {
    return this.videos.findOne(id);
  }

  @Get(':id/related')
  @ApiNotFoundResponse({ description: 'Video not found' })
  @ApiResponse({ status: 200, type: RelatedVideosDto })
  related(@Param('id', parseId()) id: number): Promise<RelatedVideosDto> {
    return this.videos.related(id);
  }
}
