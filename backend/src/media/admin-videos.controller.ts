import { BadRequestException, Body, Controller, HttpCode, HttpStatus, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiConsumes, ApiTags, ApiResponse } from '@nestjs/swagger';
import { Roles } from '../common/decorators/auth.decorators';
import { UploadAcceptedDto, UploadVideoDto } from './dto/upload-video.dto';
import { UploadsService } from './uploads.service';

export const FILE_REQUIRED = 'A video file is required (multipart field "file")';

@ApiTags('admin')
@ApiBearerAuth()
@Roles('admin')
@Controller('admin/videos')
export class AdminVideosController {
  constructor(private readonly uploads: UploadsService) {}

  /** Streams the upload to disk (MAX_UPLOAD_BYTES, else 413) and starts its ingest: 202 `{id, job_id}`. */
  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('file'))
  @ApiResponse({ status: 202, type: UploadAcceptedDto })
  upload(@UploadedFile() file: Express.Multer.File | undefined, @Body() dto: UploadVideoDto): Promise<UploadAcceptedDto> {
    if (!file) throw new BadRequestException(FILE_REQUIRED);
    return this.uploads.accept(file.path, file.originalname, dto);
  }
}
