import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { VideosModule } from '../videos/videos.module';
import { Bookmark } from './bookmark.entity';
import { HistoryEntry } from './history-entry.entity';
import { Like } from './like.entity';
import { ListsController } from './lists.controller';
import { ListsService } from './lists.service';
import { MeController } from './me.controller';
import { WatchLaterItem } from './watch-later-item.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Bookmark, WatchLaterItem, HistoryEntry, Like]), VideosModule],
  controllers: [ListsController, MeController],
  providers: [ListsService],
})
export class ListsModule {}
