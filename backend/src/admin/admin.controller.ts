import { Body, Controller, Headers, HttpCode, HttpStatus, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { memoryStorage } from 'multer';
import { ApiBody, ApiConsumes, ApiHeader, ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { EmptyBodyDto } from '../common/dto/empty-body.dto';
import { AdminVideosService } from './admin-videos.service';
import { AdminService } from './admin.service';
import { NoErrorDto } from '../common/dto/no-error.dto';
import { ThumbnailUrlDto, UPDATE_THUMBNAIL_BODY, UpdateThumbnailDto } from './dto/update-thumbnail.dto';
import {
  DELETE_VIDEO_FIELDS,
  DeleteVideoDto,
  UPDATE_VIDEO_FIELDS,
  UpdatedVideoDto,
  UpdateVideoDto,
} from './dto/update-video.dto';
import { PickedBody } from './picked-body.decorator';
import { THUMBNAIL_MAX_BYTES, ThumbnailsService } from './thumbnails.service';
import { ApiAdmin, ApiError } from '../openapi/openapi.decorators';

class RefreshViewsDto extends NoErrorDto {
  @ApiProperty({ description: 'Videos whose buffered counts were written' }) flushed: number;
}

@ApiTags('admin')
@ApiAdmin()
@Roles('admin')
@Controller('admin')
export class AdminController {
  constructor(
    private readonly admin: AdminService,
    private readonly videos: AdminVideosService,
    private readonly thumbnails: ThumbnailsService,
  ) {}

  @Post('refresh-views')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Write the buffered view and like counts now and recompute trending' })
  @ApiOkResponse({ type: RefreshViewsDto, description: 'Buffered view and like counts written, trending recomputed' })
  refreshViews(@Body() _body: EmptyBodyDto): Promise<RefreshViewsDto> {
    return this.admin.refreshViews();
  }

  @Post('clear-cache')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Empty every response cache' })
  @ApiOkResponse({ type: NoErrorDto, description: 'Every response cache emptied' })
  clearCache(@Body() _body: EmptyBodyDto): Promise<NoErrorDto> {
    return this.admin.clearCache();
  }

  @Post('update-video')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Edit a video’s fields' })
  @ApiBody({ type: UpdateVideoDto, description: 'The whole Video object: the fields listed are written, any other field is ignored' })
  @ApiOkResponse({ type: UpdatedVideoDto })
  @ApiError(400, 'Invalid field, an unknown category or performer (named), or an If-Match that is not a version')
  @ApiError(404, 'Video not found')
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description:
      'The version of the video as the admin read it, `"{editVersion}-{views}-{likes}"` (@hunktube/shared editPrecondition). ' +
      'With it, an edit made from an outdated read of the editable fields answers 409, and views and likes are applied as ' +
      'changes from the counts read, so that views counted meanwhile are kept. Without it, the fields are written as given.',
  })
  @ApiError(409, 'Slug is already taken by another video, or another admin changed the video since it was read (If-Match)')
  updateVideo(
    @PickedBody(UpdateVideoDto, UPDATE_VIDEO_FIELDS) dto: UpdateVideoDto,
    // All headers, not @Headers('if-match'): the document names the header once, as optional (ApiHeader above).
    @Headers() headers: Record<string, string | undefined>,
  ): Promise<UpdatedVideoDto> {
    return this.videos.update(dto, headers['if-match']);
  }

  @Post('delete-video')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Delete a video with everything that hangs on it' })
  @ApiBody({ type: DeleteVideoDto, description: 'The Video object: only id is read' })
  @ApiOkResponse({ type: NoErrorDto, description: 'The video, its list entries, playlist items, stats, jobs and media files are gone' })
  @ApiError(404, 'Video not found')
  deleteVideo(@PickedBody(DeleteVideoDto, DELETE_VIDEO_FIELDS) dto: DeleteVideoDto): Promise<NoErrorDto> {
    return this.videos.remove(dto.id);
  }

  @Post('update-thumbnail')
  @HttpCode(HttpStatus.OK)
  // In memory, whatever storage a module registers for uploads: the bytes are checked before anything is written.
  // multer (2.x) answers LIMIT_FILE_SIZE only past the limit, so a file of exactly 10 MB passes.
  @UseInterceptors(FileInterceptor('file', { storage: memoryStorage(), limits: { fileSize: THUMBNAIL_MAX_BYTES, files: 1 } }))
  @ApiOperation({ summary: 'Replace a thumbnail image' })
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPDATE_THUMBNAIL_BODY)
  @ApiOkResponse({ type: ThumbnailUrlDto })
  @ApiError(400, 'No file, or uploadPath is not a thumbnail path inside the store')
  @ApiError(413, 'The file is over 10 MB')
  @ApiError(415, 'The bytes are not JPEG, PNG, WebP or AVIF')
  updateThumbnail(@UploadedFile() file: Express.Multer.File | undefined, @Body() dto: UpdateThumbnailDto): Promise<ThumbnailUrlDto> {
    return this.thumbnails.replace(file, dto.uploadPath);
  }
}
