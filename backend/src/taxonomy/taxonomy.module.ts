import { Module } from '@nestjs/common';
import { VideoStoreModule } from '../videos/video-store.module';
import { TaxaStoreModule } from '../taxa/taxa-store.module';
import { TaxonomyController } from './taxonomy.controller';
import { TaxonomyService } from './taxonomy.service';
import { TagsController } from './tags.controller';
import { TagsService } from './tags.service';

/** The category, performer and tag lists with their counts, their creation and renaming, and tag synonyms (the tables are the taxa store's). */
@Module({
  imports: [VideoStoreModule, TaxaStoreModule],
  controllers: [TaxonomyController, TagsController],
  providers: [TaxonomyService, TagsService],
  exports: [TaxonomyService, TagsService, TaxaStoreModule],
})
export class TaxonomyModule {}
