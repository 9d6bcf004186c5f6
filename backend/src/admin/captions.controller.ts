import { Body, Controller, Delete, HttpCode, HttpStatus, Param, Post, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { memoryStorage } from 'multer';
import { Roles } from '../common/decorators/auth.decorators';
import { parseId } from '../common/pipes/parse-id.pipe';
import { CAPTIONS_MAX_BYTES } from '../media/captions/captions-text';
import { ApiAdmin, ApiError } from '../openapi/openapi.decorators';
import { CaptionDto } from '../videos/dto/video.dto';
import { CaptionsService } from './captions.service';
import { UPLOAD_CAPTIONS_BODY, UploadCaptionsDto } from './dto/captions.dto';

/** A video's caption files (issue #34, point 5; api-contract.md › Discovery). */
@ApiTags('admin')
@ApiAdmin()
@Roles('admin')
@Controller('admin/videos')
export class CaptionsController {
  constructor(private readonly captions: CaptionsService) {}

  @Post(':id/captions')
  @HttpCode(HttpStatus.CREATED)
  // In memory: a few hundred kB, read whole to be converted; multer answers LIMIT_FILE_SIZE (413) past the bound.
  @UseInterceptors(FileInterceptor('file', { storage: memoryStorage(), limits: { fileSize: CAPTIONS_MAX_BYTES, files: 1 } }))
  @ApiOperation({ summary: "Add or replace a video's captions in one language (WebVTT or SRT)" })
  @ApiConsumes('multipart/form-data')
  @ApiBody(UPLOAD_CAPTIONS_BODY)
  @ApiResponse({ status: 201, type: CaptionDto })
  @ApiError(400, 'No file, a language tag that is not BCP 47, or a field out of its limits')
  @ApiError(404, 'Video not found')
  @ApiError(413, 'The file is over 512 kB')
  @ApiError(415, 'The file is not WebVTT or SRT captions in UTF-8')
  upload(
    @Param('id', parseId()) id: number,
    @UploadedFile() file: Express.Multer.File | undefined,
    @Body() dto: UploadCaptionsDto,
  ): Promise<CaptionDto> {
    return this.captions.upload(id, file, dto);
  }

  @Delete(':id/captions/:lang')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: "Remove a video's captions in one language" })
  @ApiParam({ name: 'lang', example: 'en' })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiError(400, 'id is not a positive integer, or lang is not a BCP 47 tag')
  @ApiError(404, 'Video not found, or it has no captions in that language')
  remove(@Param('id', parseId()) id: number, @Param('lang') lang: string): Promise<void> {
    return this.captions.remove(id, lang);
  }
}
