import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { StorageService } from './storage.service';
import type { StoreDriver } from './store/placed-media-store';

/** How often the placements are read again while announcements may be missed (the bus down, or never read). */
const REREAD_MS = 10_000;

/**
 * Which store each moved video is read from (`media_placements`; docs/media.md › "Moving media"): read whole at
 * start into the storage's PlacedMediaStore, then kept by the `MediaPlaced` announcements of `media:migrate`. While
 * the change bus is down (an announcement may be missed) or the table could not be read, it is read again every
 * ten seconds: `media:migrate` removes a moved video's old copies only after a grace longer than that.
 */
@Injectable()
export class MediaPlacements implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MediaPlacements.name);
  private current = false;
  private timer?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly storage: StorageService,
    private readonly bus: InvalidationBus,
  ) {
    bus.declareCache('media: where moved videos are', {
      MediaPlaced: (event) => this.storage.store.place(event.stems, event.store),
      CachesCleared: () => {
        this.current = false;
        void this.reread();
      },
    });
  }

  async onModuleInit(): Promise<void> {
    await this.reread();
    this.timer = setInterval(() => {
      if (!this.current || !this.bus.live) void this.reread();
    }, REREAD_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Reads every placement again; false (said once, and retried) when the database does not answer. */
  async reread(): Promise<boolean> {
    try {
      const rows: { stem: string; store: StoreDriver }[] = await this.db.query('SELECT stem, store FROM media_placements');
      this.storage.store.replacePlacements(rows.map((r) => [r.stem, r.store]));
      if (!this.current && this.timer) this.logger.log(`Read where ${rows.length} moved video(s) are`);
      this.current = true;
      return true;
    } catch (error) {
      if (this.current || !this.timer) this.logger.warn(`Could not read where moved videos are (read again in ${REREAD_MS / 1000} s): ${(error as Error).message}`);
      this.current = false;
      return false;
    }
  }

  /** Places the videos `stems` in `driver`'s store, here and (announced) in every process. */
  async place(stems: string[], driver: StoreDriver): Promise<void> {
    if (stems.length === 0) return;
    await this.db.query(
      `INSERT INTO media_placements (stem, store) SELECT unnest($1::text[]), $2
       ON CONFLICT (stem) DO UPDATE SET store = EXCLUDED.store, placed_at = now()`,
      [stems, driver],
    );
    this.bus.publish({ type: 'MediaPlaced', stems, store: driver });
  }
}
