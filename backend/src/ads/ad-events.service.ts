import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isDependencyDown } from '../common/errors/dependency-errors';
import { isForeignKeyViolation } from '../common/utils/database-errors';
import { NotFoundError } from '../common/errors/domain-errors';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AD_EVENTS, type AdEvent, type AdZone } from './ad-zone-rules';
import { AD_ZONE_NOT_FOUND, AdZonesService } from './ad-zones.service';

/** The figures' columns, in AD_EVENTS' order. */
export const AD_COUNT_COLUMNS = ['requests', 'fills', 'impressions', 'completes', 'skips', 'clicks', 'errors'] as const;
export type AdCountColumn = (typeof AD_COUNT_COLUMNS)[number];
export type AdCounts = Record<AdCountColumn, number>;
const COLUMN_OF = Object.fromEntries(AD_EVENTS.map((event, i) => [event, AD_COUNT_COLUMNS[i]])) as Record<AdEvent, AdCountColumn>;
export const noAdCounts = (): AdCounts => ({ requests: 0, fills: 0, impressions: 0, completes: 0, skips: 0, clicks: 0, errors: 0 });

const HOUR_MS = 3_600_000;
/** The longest frequency cap (720 hours): members' impressions older than this count for nothing. */
const IMPRESSIONS_KEPT = '720 hours';

/**
 * The zones' figures (docs/ads.md › "Reporting"): each event is counted in this process and written per zone and
 * day in one statement every COUNTER_FLUSH_MS and before shutdown, as views are; a flush that fails keeps them
 * for the next. Members' impressions are written with them, for their frequency caps.
 */
@Injectable()
export class AdEventsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(AdEventsService.name);
  private counts = new Map<number, AdCounts>();
  private impressions: { userId: string; zoneId: number; at: Date }[] = [];
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private lastPrune = 0;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly zones: AdZonesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.flush().catch((error: unknown) => {
        if (isDependencyDown(error)) this.logger.warn(`Ad figures kept for later, the database does not answer: ${String(error)}`);
        else this.logger.error(`Ad figures flush failed, will retry: ${String(error)}`);
      });
    }, this.config.counterFlushMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Counts one event of a zone (404 for a zone that does not exist); a member's impression counts for their cap. */
  async record(zoneId: number, event: AdEvent, userId: string | null): Promise<void> {
    const zone = (await this.zones.zones()).find((z) => z.id === zoneId);
    if (!zone) throw new NotFoundError(AD_ZONE_NOT_FOUND);
    const counts = this.counts.get(zoneId) ?? noAdCounts();
    counts[COLUMN_OF[event]]++;
    this.counts.set(zoneId, counts);
    if (event === 'impression' && userId && zone.frequencyCap) this.impressions.push({ userId, zoneId, at: new Date() });
  }

  /** What this process has counted and not yet written, by zone. */
  pending(): ReadonlyMap<number, AdCounts> {
    return this.counts;
  }

  /**
   * The zones a member has reached the cap of: their impressions in each capped zone's window, written and still
   * buffered. When the database does not answer, every capped zone counts as reached (no ad rather than too many).
   */
  async cappedFor(userId: string, zones: readonly AdZone[]): Promise<Set<number>> {
    const capped = zones.filter((zone) => zone.frequencyCap);
    if (capped.length === 0) return new Set();
    let stored: { zone_id: number; shown: number }[];
    try {
      stored = await this.db.query<{ zone_id: number; shown: number }[]>(
        `SELECT i.zone_id, count(*)::int AS shown
         FROM ad_member_impressions i JOIN unnest($2::int[], $3::int[]) AS z(id, hours) ON z.id = i.zone_id
         WHERE i.user_id = $1 AND i.shown_at > now() - make_interval(hours => z.hours)
         GROUP BY i.zone_id`,
        [userId, capped.map((z) => z.id), capped.map((z) => z.frequencyCap?.hours)],
      );
    } catch (error) {
      if (!isDependencyDown(error)) throw error;
      return new Set(capped.map((zone) => zone.id));
    }
    const shown = new Map(stored.map((row) => [Number(row.zone_id), Number(row.shown)]));
    const now = Date.now();
    for (const i of this.impressions) {
      const zone = capped.find((z) => z.id === i.zoneId);
      if (i.userId === userId && zone?.frequencyCap && now - i.at.getTime() < zone.frequencyCap.hours * HOUR_MS) {
        shown.set(i.zoneId, (shown.get(i.zoneId) ?? 0) + 1);
      }
    }
    return new Set(capped.filter((zone) => (shown.get(zone.id) ?? 0) >= (zone.frequencyCap?.count ?? Infinity)).map((zone) => zone.id));
  }

  /**
   * A member's impressions that their frequency caps count (the account export): written and still buffered,
   * newest first, each with its zone's name. Kept 720 hours at most.
   */
  async exportImpressions(userId: string): Promise<{ zone_id: number; zone: string; shown_at: string }[]> {
    const stored = await this.db.query<{ zone_id: number; zone: string; shown_at: Date | string }[]>(
      `SELECT i.zone_id, z.name AS zone, i.shown_at FROM ad_member_impressions i JOIN ad_zones z ON z.id = i.zone_id
       WHERE i.user_id = $1 ORDER BY i.shown_at DESC`,
      [userId],
    );
    const names = new Map((await this.zones.zones()).map((zone) => [zone.id, zone.name]));
    const buffered = this.impressions
      .filter((i) => i.userId === userId && names.has(i.zoneId))
      .map((i) => ({ zone_id: i.zoneId, zone: names.get(i.zoneId) as string, shown_at: i.at.toISOString() }));
    const written = stored.map((row) => ({ zone_id: Number(row.zone_id), zone: row.zone, shown_at: new Date(row.shown_at).toISOString() }));
    return [...buffered.reverse(), ...written];
  }

  /** Writes what is counted; one flush at a time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    const counts = this.counts;
    const impressions = this.impressions;
    if (counts.size === 0 && impressions.length === 0) return this.prune();
    this.counts = new Map();
    this.impressions = [];
    try {
      if (counts.size > 0) {
        const ids = [...counts.keys()];
        const columns = AD_COUNT_COLUMNS.map((column) => ids.map((id) => (counts.get(id) as AdCounts)[column]));
        // Zones removed since are left out (their figures went with them).
        await this.db.query(
          `INSERT INTO ad_zone_daily_stats (zone_id, day, ${AD_COUNT_COLUMNS.join(', ')})
           SELECT u.zone_id, CURRENT_DATE, ${AD_COUNT_COLUMNS.map((c) => `u.${c}`).join(', ')}
           FROM unnest($1::int[], ${AD_COUNT_COLUMNS.map((_, i) => `$${i + 2}::int[]`).join(', ')}) AS u(zone_id, ${AD_COUNT_COLUMNS.join(', ')})
           WHERE EXISTS (SELECT 1 FROM ad_zones z WHERE z.id = u.zone_id)
           ON CONFLICT (zone_id, day) DO UPDATE SET ${AD_COUNT_COLUMNS.map((c) => `${c} = ad_zone_daily_stats.${c} + EXCLUDED.${c}`).join(', ')}`,
          [ids, ...columns],
        );
      }
    } catch (error) {
      // Kept for the next flush, with what was counted meanwhile.
      for (const [id, add] of counts) {
        const into = this.counts.get(id) ?? noAdCounts();
        for (const column of AD_COUNT_COLUMNS) into[column] += add[column];
        this.counts.set(id, into);
      }
      this.impressions = [...impressions, ...this.impressions];
      throw error;
    }
    if (impressions.length > 0) await this.writeImpressions(impressions);
    await this.prune();
  }

  private async writeImpressions(impressions: { userId: string; zoneId: number; at: Date }[]): Promise<void> {
    try {
      await this.db.query(
        `INSERT INTO ad_member_impressions (user_id, zone_id, shown_at)
         SELECT u.user_id, u.zone_id, u.shown_at FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS u(user_id, zone_id, shown_at)
         WHERE EXISTS (SELECT 1 FROM ad_zones z WHERE z.id = u.zone_id)`,
        [impressions.map((i) => i.userId), impressions.map((i) => i.zoneId), impressions.map((i) => i.at.toISOString())],
      );
    } catch (error) {
      // A member whose account is gone since: their impressions count for nobody. Anything else: kept.
      if (isForeignKeyViolation(error)) return;
      this.impressions = [...impressions, ...this.impressions];
      throw error;
    }
  }

  /** Once an hour: members' impressions older than the longest cap. */
  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < HOUR_MS) return;
    this.lastPrune = Date.now();
    await this.db.query(`DELETE FROM ad_member_impressions WHERE shown_at < now() - interval '${IMPRESSIONS_KEPT}'`);
  }
}
