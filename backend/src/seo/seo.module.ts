import { Module } from '@nestjs/common';
import { TaxonomyModule } from '../taxonomy/taxonomy.module';
import { VideoStoreModule } from '../videos/video-store.module';
import { SeoController } from './seo.controller';
import { SitemapsService } from './sitemaps.service';

/** robots.txt and the sitemaps: reads the catalogue through the videos' repository and the taxonomy's service. */
@Module({
  imports: [VideoStoreModule, TaxonomyModule],
  controllers: [SeoController],
  providers: [SitemapsService],
})
export class SeoModule {}
