import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { VideosModule } from '../videos/videos.module';
import { ListsStoreModule } from './lists-store.module';
import { ListsController } from './lists.controller';
import { ListsService } from './lists.service';
import { MeController } from './me.controller';

/** A member's bookmarks, watch later queue, likes and history (owns those four tables). */
@Module({
  imports: [ListsStoreModule, VideosModule, AuthModule],
  controllers: [ListsController, MeController],
  providers: [ListsService],
})
export class ListsModule {}
