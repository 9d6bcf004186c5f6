import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { generateCatalog } from './catalog-generator';
import { writeCatalog } from './catalog-writer';

export const DEMO_VIDEO_COUNT = 24;

/**
 * On the first start of an empty database (DEMO_SEED, on by default in development) fills in a small demo
 * catalogue so a newcomer sees a working site. Metadata only for now: the media pipeline replaces it with
 * generated, playable clips.
 */
@Injectable()
export class DemoSeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoSeedService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.demoSeed) return;
    const [{ empty }] = await this.db.query<{ empty: boolean }[]>('SELECT NOT EXISTS (SELECT 1 FROM videos) AS empty');
    if (!empty) return;
    const { videos } = await writeCatalog(this.db, generateCatalog({ videos: DEMO_VIDEO_COUNT, seed: 2024 }));
    this.logger.log(`Empty database: added ${videos} demo videos`);
  }
}
