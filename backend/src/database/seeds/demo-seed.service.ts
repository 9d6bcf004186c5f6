import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { cheapestFirst, demoClips } from '../../media/demo-clips';
import { INGEST_KIND } from '../../media/ingest.service';
import { JobRunner } from '../../jobs/job-runner.service';
import { JobsService } from '../../jobs/jobs.service';
import { VideosRepository } from '../../videos/videos.repository';
import { stemOf } from '../../common/media-paths';
import { generateCatalog } from './catalog-generator';
import { writeCatalog } from './catalog-writer';

/**
 * On the first start of an empty database (DEMO_SEED, on by default in development): 24 demo videos (DEMO_SEED_VIDEOS) with
 * categories, performers, brand titles, views and likes, each with an ingest job that makes a synthetic clip
 * with ffmpeg and runs it through the same pipeline as an upload, on a lighter ladder (`demoLadderFor`). The site
 * is up meanwhile; each video appears once its media is built, the cheapest first: on two cores the first within
 * seconds and all 24 in about two minutes (README, "Quick start").
 */
@Injectable()
export class DemoSeedService implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoSeedService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly videos: VideosRepository,
    private readonly jobs: JobsService,
    private readonly runner: JobRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.demoSeed) return;
    if (!(await this.videos.isEmpty())) return;
    await this.seed();
  }

  async seed(): Promise<number[]> {
    const catalog = generateCatalog({ videos: this.config.demoSeedVideos, seed: 2024 });
    for (const video of catalog.videos) video.duration = null; // measured by the pipeline
    const { ids } = await writeCatalog(this.db, catalog, 'processing');
    const clips = demoClips(catalog.videos.map((v) => v.title));
    const jobIds: number[] = [];
    for (const i of cheapestFirst(clips)) {
      const video = catalog.videos[i];
      jobIds.push(await this.jobs.enqueue(ids[i], INGEST_KIND, { source: `${stemOf(video.url)}.mp4`, demo: clips[i] }));
    }
    this.runner.poke();
    this.logger.log(`Empty database: ${jobIds.length} demo videos are being made (they appear as each one is ready)`);
    return jobIds;
  }
}
