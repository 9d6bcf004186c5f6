import { Module } from '@nestjs/common';
import { VideosModule } from '../videos/videos.module';
import { PlaylistsController } from './playlists.controller';
import { PlaylistsService } from './playlists.service';

/** Members' playlists and their ordered items (owns `playlists` and `playlist_items`). */
@Module({
  imports: [VideosModule],
  controllers: [PlaylistsController],
  providers: [PlaylistsService],
  exports: [PlaylistsService],
})
export class PlaylistsModule {}
