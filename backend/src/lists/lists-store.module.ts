import { Global, Module } from '@nestjs/common';
import { MEMBER_LIKES } from '../videos/counters/member-likes';
import { LikesRepository } from './likes.repository';

/**
 * The part of the lists' data other modules write through: members' likes, recorded by the counters through
 * their MemberLikes port (global, so that the videos module below needs no import of the lists).
 */
@Global()
@Module({
  providers: [LikesRepository, { provide: MEMBER_LIKES, useExisting: LikesRepository }],
  exports: [LikesRepository, MEMBER_LIKES],
})
export class ListsStoreModule {}
