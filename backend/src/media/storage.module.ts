import { Module } from '@nestjs/common';
import { StorageService } from './storage.service';

/** The media store's files (MEDIA_DIR), for every module that reads or writes them. */
@Module({
  providers: [StorageService],
  exports: [StorageService],
})
export class StorageModule {}
