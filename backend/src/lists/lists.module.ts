import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TaxonomyModule } from '../taxonomy/taxonomy.module';
import { VideosModule } from '../videos/videos.module';
import { ContinueWatchingController } from './continue-watching.controller';
import { ContinueWatchingService } from './continue-watching.service';
import { FollowingController } from './following.controller';
import { FollowsService } from './follows.service';
import { ListsStoreModule } from './lists-store.module';
import { ListsController } from './lists.controller';
import { ListsService } from './lists.service';
import { MeController } from './me.controller';

/** A member's bookmarks, watch later queue, likes, history and followed performers (owns those five tables). */
@Module({
  imports: [ListsStoreModule, VideosModule, AuthModule, TaxonomyModule],
  controllers: [ListsController, FollowingController, ContinueWatchingController, MeController],
  providers: [ListsService, FollowsService, ContinueWatchingService],
  exports: [ListsService, FollowsService],
})
export class ListsModule {}
