import { Module } from '@nestjs/common';
import { LikesRepository } from './likes.repository';

/** The part of the lists' data other modules write through: members' likes, recorded by the counters. */
@Module({
  providers: [LikesRepository],
  exports: [LikesRepository],
})
export class ListsStoreModule {}
