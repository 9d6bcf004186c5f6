import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { StatsPeriod } from '../videos/dto/video-stats.dto';
import { AD_COUNT_COLUMNS, AdEventsService, noAdCounts, type AdCounts } from './ad-events.service';
import { AdZonesService } from './ad-zones.service';
import type { AdDayDto, AdStatsDto, AdZoneStatsDto } from './dto/ad-zone.dto';

type DayRow = { day: string; zone_id: number | null } & Record<(typeof AD_COUNT_COLUMNS)[number], number>;

const sum = (into: AdCounts, add: AdCounts): AdCounts => {
  for (const column of AD_COUNT_COLUMNS) into[column] += add[column];
  return into;
};

/**
 * The zones' figures per day (docs/ads.md › "Reporting"), answered like a video's statistics: every day of the
 * period, oldest first, zeros where nothing happened; what this process still buffers is added to today.
 */
@Injectable()
export class AdStatsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly zones: AdZonesService,
    private readonly events: AdEventsService,
  ) {}

  async zone(id: number, days: StatsPeriod): Promise<AdZoneStatsDto> {
    const zone = await this.zones.one(id);
    const rows = await this.days(days, id);
    const daily = this.filled(rows, days, [id]);
    return { id, name: zone.name, days, totals: daily.reduce((total, d) => sum(total, d), noAdCounts()), daily };
  }

  async all(days: StatsPeriod): Promise<AdStatsDto> {
    const [zones, rows] = await Promise.all([this.zones.zones(), this.days(days, null)]);
    const ids = zones.map((zone) => zone.id);
    const totals = new Map(ids.map((id) => [id, noAdCounts()]));
    for (const row of rows) if (row.zone_id !== null) sum(totals.get(Number(row.zone_id)) ?? noAdCounts(), countsOf(row));
    for (const [id, pending] of this.events.pending()) if (totals.has(id)) sum(totals.get(id) as AdCounts, pending);
    return {
      days,
      zones: zones.map((zone) => ({ id: zone.id, name: zone.name, placement: zone.placement, active: zone.active, totals: totals.get(zone.id) as AdCounts })),
      daily: this.filled(rows, days, ids),
    };
  }

  /** The period's days (the database's calendar), each with its rows: one zone's, or every zone's. */
  private days(days: StatsPeriod, zoneId: number | null): Promise<DayRow[]> {
    return this.db.query<DayRow[]>(
      `SELECT to_char(d, 'YYYY-MM-DD') AS day, s.zone_id, ${AD_COUNT_COLUMNS.map((c) => `COALESCE(s.${c}, 0) AS ${c}`).join(', ')}
       FROM generate_series(CURRENT_DATE - ($1::int - 1), CURRENT_DATE, interval '1 day') AS d
       LEFT JOIN ad_zone_daily_stats s ON s.day = d::date AND ($2::int IS NULL OR s.zone_id = $2)
       ORDER BY d`,
      [days, zoneId],
    );
  }

  /** One entry a day, the rows of a day summed, the buffered counts of these zones added to the last (today). */
  private filled(rows: DayRow[], days: StatsPeriod, zoneIds: number[]): AdDayDto[] {
    const byDay = new Map<string, AdCounts>();
    for (const row of rows) byDay.set(row.day, sum(byDay.get(row.day) ?? noAdCounts(), countsOf(row)));
    const daily = [...byDay].map(([day, counts]) => ({ day, ...counts }));
    const today = daily[daily.length - 1];
    const wanted = new Set(zoneIds);
    for (const [id, pending] of this.events.pending()) if (today && wanted.has(id)) sum(today, pending);
    return daily.slice(-days);
  }
}

const countsOf = (row: DayRow): AdCounts =>
  Object.fromEntries(AD_COUNT_COLUMNS.map((column) => [column, Number(row[column])])) as AdCounts;
