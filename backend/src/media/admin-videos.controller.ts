import { BadRequestException, Body, Controller, HttpCode, HttpStatus, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { UploadAcceptedDto, UploadVideoDto } from './dto/upload-video.dto';
import { UploadsService } from './uploads.service';
import { ApiAdmin, ApiError } from '../openapi/openapi.decorators';

export const FILE_REQUIRED = 'A video file is required (multipart field "file")';

@ApiTags('admin')
@ApiAdmin()
@Roles('admin')
@Controller('admin/videos')
export class AdminVideosController {
  constructor(private readonly uploads: UploadsService) {}

  /** Streams the upload to disk (MAX_UPLOAD_BYTES, else 413) and starts its ingest: 202 `{id, job_id}`. */
  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Upload a video and start its ingest' })
  @ApiConsumes('multipart/form-data')
  // The document names the file part too (the DTO has only the text fields), so that clients and the
  // hostile-input suite know what the form holds.
  @ApiExtraModels(UploadVideoDto)
  @ApiBody({
    schema: {
      allOf: [
        { $ref: getSchemaPath(UploadVideoDto) },
        { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'The video, by content: MP4, MOV, MKV, WebM, AVI, MPEG-TS or FLV' } } },
      ],
    },
  })
  @UseInterceptors(FileInterceptor('file'))
  @ApiResponse({ status: 202, type: UploadAcceptedDto })
  @ApiError(400, 'No file, or a field out of its limits')
  @ApiError(413, 'The file is over MAX_UPLOAD_BYTES')
  @ApiError(415, 'The bytes are not a video')
  upload(@UploadedFile() file: Express.Multer.File | undefined, @Body() dto: UploadVideoDto): Promise<UploadAcceptedDto> {
    if (!file) throw new BadRequestException(FILE_REQUIRED);
    return this.uploads.accept(file.path, file.originalname, dto);
  }
}
