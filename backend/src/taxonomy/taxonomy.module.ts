import { Module } from '@nestjs/common';
import { VideoStoreModule } from '../videos/video-store.module';
import { TaxaStoreModule } from '../taxa/taxa-store.module';
import { TaxonomyController } from './taxonomy.controller';
import { TaxonomyService } from './taxonomy.service';
import { TagsController } from './tags.controller';
import { TagsService } from './tags.service';
import { HiddenTopicsController } from './hidden-topics.controller';
import { HiddenTopicsService } from './hidden-topics.service';

/** The category, performer and tag lists with their counts, their creation and renaming, tag synonyms and a member's hidden topics (the tables are the taxa store's). */
@Module({
  imports: [VideoStoreModule, TaxaStoreModule],
  controllers: [TaxonomyController, TagsController, HiddenTopicsController],
  providers: [TaxonomyService, TagsService, HiddenTopicsService],
  exports: [TaxonomyService, TagsService, HiddenTopicsService, TaxaStoreModule],
})
export class TaxonomyModule {}
