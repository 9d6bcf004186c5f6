import { Module } from '@nestjs/common';
import { VideoStoreModule } from '../videos/video-store.module';
import { TaxonomyStoreModule } from './taxonomy-store.module';
import { TaxonomyController } from './taxonomy.controller';
import { TaxonomyService } from './taxonomy.service';

/** Categories and performers (owns `categories` and `performers`); the videos carrying them are the videos'. */
@Module({
  imports: [VideoStoreModule, TaxonomyStoreModule],
  controllers: [TaxonomyController],
  providers: [TaxonomyService],
  exports: [TaxonomyService, TaxonomyStoreModule],
})
export class TaxonomyModule {}
