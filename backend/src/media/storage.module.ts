import { Module } from '@nestjs/common';
import { FfmpegRunner } from './ffmpeg.runner';
import { HlsKeysService } from './hls-keys.service';
import { ImageVariants } from './image-variants';
import { MediaPlacements } from './media-placements.service';
import { StorageService } from './storage.service';

/**
 * The media store's files (MEDIA_DIR), for every module that reads or writes them, with the WebP copies of its
 * images (made by ffmpeg, which is why the runner lives here too).
 */
@Module({
  providers: [StorageService, FfmpegRunner, ImageVariants, HlsKeysService, MediaPlacements],
  exports: [StorageService, FfmpegRunner, ImageVariants, HlsKeysService, MediaPlacements],
})
export class StorageModule {}
