import type { DataSource } from 'typeorm';
import { InvalidationBus } from '../../src/common/cache/invalidation-bus';
import type { AuthUser } from '../../src/common/decorators/auth.decorators';
import { loadConfig } from '../../src/config/app-config';
import { LikesRepository } from '../../src/lists/likes.repository';
import { TaxaRepository } from '../../src/taxa/taxa.repository';
import { CatalogueCache } from '../../src/videos/catalogue-cache';
import { SearchIndex } from '../../src/videos/catalogue/search-index';
import { CountersService } from '../../src/videos/counters/counters.service';
import { MemoryCounterStore } from '../../src/videos/counters/memory-counter-store';
import { VideosRepository } from '../../src/videos/videos.repository';
import { VideosService } from '../../src/videos/videos.service';

/**
 * The catalogue's services built by hand on a test database (createTestDatabase), wired as the app wires them,
 * for the specs of the services above them (test/*-service.int-spec.ts). `env` is the settings besides the
 * tests' own; the cache's sweeping stops with `cache.onModuleDestroy()`.
 */
export function catalogueOn(db: DataSource, env: Record<string, string> = {}) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent-test-data-dir', ...env });
  const bus = new InvalidationBus(config);
  const cache = new CatalogueCache(bus, config);
  const catalogue = new VideosRepository(db, cache, bus);
  const taxa = new TaxaRepository(db);
  const counters = new CountersService(catalogue, new LikesRepository(db), new MemoryCounterStore(), config);
  const videos = new VideosService(db, config, cache, counters, catalogue, taxa, bus, new SearchIndex(db, bus, config));
  return { config, bus, cache, catalogue, taxa, counters, videos };
}

/** A member written straight into `users` (no password anyone could sign in with), as the guards hand it over. */
export async function insertMember(db: DataSource, fields: { email: string; displayName: string; historyPaused?: boolean }): Promise<AuthUser> {
  const { email, displayName, historyPaused = false } = fields;
  const [row] = await db.query<{ id: string }[]>(
    `INSERT INTO users (email, password_hash, display_name, role_id, history_paused) VALUES ($1, 'x', $2, 'member', $3) RETURNING id`,
    [email, displayName, historyPaused],
  );
  return { id: row.id, email, displayName, roleId: 'member', historyPaused };
}

/** The error a call was refused with; a failure when it was not refused. */
export function refusal(work: Promise<unknown>): Promise<Error & { code?: string }> {
  return work.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error as Error & { code?: string },
  );
}
