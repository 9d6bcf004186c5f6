import { Module } from '@nestjs/common';
import { VideoStoreModule } from '../videos/video-store.module';
import { TaxaStoreModule } from '../taxa/taxa-store.module';
import { TaxonomyController } from './taxonomy.controller';
import { TaxonomyService } from './taxonomy.service';

/** The category and performer lists with their counts, and their creation and renaming (the tables are the taxa store's). */
@Module({
  imports: [VideoStoreModule, TaxaStoreModule],
  controllers: [TaxonomyController],
  providers: [TaxonomyService],
  exports: [TaxonomyService, TaxaStoreModule],
})
export class TaxonomyModule {}
