import { Module } from '@nestjs/common';
import { AdsModule } from '../ads/ads.module';
import { AuthModule } from '../auth/auth.module';
import { ListsModule } from '../lists/lists.module';
import { PlaylistsModule } from '../playlists/playlists.module';
import { VideosModule } from '../videos/videos.module';
import { TaxonomyModule } from '../taxonomy/taxonomy.module';
import { AccountController } from './account.controller';
import { AccountService } from './account.service';

/** A member's export and the deletion of their account: owns no table, asks each owner for its part. */
@Module({
  imports: [AuthModule, ListsModule, PlaylistsModule, VideosModule, TaxonomyModule, AdsModule],
  controllers: [AccountController],
  providers: [AccountService],
})
export class AccountModule {}
