import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { DataSource, type EntityManager } from 'typeorm';
import type {
  CloseRemovalRequestDto,
  CreateRemovalRequestDto,
  RemovalRequestCountsDto,
  RemovalRequestCreatedDto,
  RemovalRequestDto,
  RemovalRequestListDto,
  RemovalRequestListQuery,
  RemovalRequestVideoDto,
} from './dto/removal-request.dto';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { siteHosts } from '../common/http/site-identity';
import { VideosRepository } from '../videos/videos.repository';
import {
  REMOVAL_BUDGET_NAME,
  REMOVAL_BUDGET_WINDOW_MS,
  RemovalBudgetExceededError,
  removalBudgetsFor,
  reporterKey,
  type RemovalSender,
} from './removal-request-budget';
import {
  isUrgent,
  REMOVAL_REASONS,
  URGENT_REASONS,
  videoIdFromAddress,
  type RemovalReason,
  type RemovalState,
} from './removal-request-reasons';
import { iso } from '../common/utils/iso';
import { ConflictError, InvalidInputError, NotFoundError } from '../common/errors/domain-errors';

/** How long open requests have waited, as the dashboard groups them: from `from` days up to `to` (null: no end). */
export const OPEN_AGE_BANDS = [
  { band: 'under-1-day', from: 0, to: 1 },
  { band: '1-7-days', from: 1, to: 7 },
  { band: '7-30-days', from: 7, to: 30 },
  { band: 'over-30-days', from: 30, to: null },
] as const;
export type OpenAgeBand = (typeof OPEN_AGE_BANDS)[number]['band'];

export interface OpenRemovalSummary {
  open: number;
  /** When the longest-waiting open request was filed; null when none is open. */
  oldest_at: string | null;
  by_age: { band: OpenAgeBand; count: number }[];
  by_reason: { reason: RemovalReason; count: number }[];
}

export const REMOVAL_REQUEST_NOT_FOUND = 'Removal request not found';
export const REMOVAL_REQUEST_CLOSED = 'This removal request is already closed';
/** Senders told apart per request; past this many, `reporters` stops growing (1000 × 16 hex digits a row at most). */
export const MAX_REPORTER_KEYS = 1000;
/** Filings take turns on this lock (PostgreSQL's advisory locks), so two copies of one request cannot both be new. */
const FILING_LOCK = 7_340_124;

interface RemovalRequestRow {
  id: number;
  video_ids: number[];
  reason: RemovalReason;
  details: string;
  contact: string;
  state: RemovalState;
  reports: number;
  reporters: number;
  created_at: Date | string;
  last_reported_at: Date | string;
  closed_at: Date | string | null;
}

const COLUMNS = 'id, video_ids, reason, details, contact, state, reports, reporters, created_at, last_reported_at, closed_at';

/**
 * Content removal requests: anyone may file one naming videos of this site, within a budget per hour; a repeat
 * of an open request is counted on it rather than filed anew. Admins work through the open ones a page at a time
 * (see `list` for the order) and close each as resolved or dismissed.
 */
@Injectable()
export class RemovalRequestsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly videos: VideosRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectThrottlerStorage() private readonly budgets: ThrottlerStorage,
  ) {}

  /**
   * Files a request, or counts it on the open request of the same reason that already names all its videos
   * (the oldest such): one more report, one more reporter if the sender's network is new to it, its latest
   * filing time; its details and contact stay the first sender's (details are filled in if it had none).
   * `requestHost`: the host the form was posted to, which is one of this site's.
   */
  async create(dto: CreateRemovalRequestDto, sender: RemovalSender, requestHost?: string): Promise<RemovalRequestCreatedDto> {
    const hosts = [requestHost, ...siteHosts(this.config)].filter((h): h is string => !!h);
    const ids: number[] = [];
    for (const url of dto.urls) {
      const id = videoIdFromAddress(url, hosts);
      if (id === null) throw new InvalidInputError(`Not the address of a video on this site: ${url.trim() || '(empty)'}`);
      if (!ids.includes(id)) ids.push(id);
    }
    const found = await this.videos.summaries(ids);
    const missing = ids.find((id) => !found.some((row) => row.id === id));
    if (missing !== undefined) {
      throw new InvalidInputError(`There is no video ${missing} on this site (it may have been removed already)`);
    }
    const key = reporterKey(sender.network, this.config.jwtSecret);
    // Only a request that would be filed counts: a refused one (400) costs the sender nothing.
    await this.spendBudget(key, sender.user);

    const details = dto.details ?? '';
    return this.db.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock($1)', [FILING_LOCK]);
      const [existing] = await m.query<{ id: number }[]>(
        `SELECT id FROM removal_requests WHERE state = 'open' AND reason = $1 AND video_ids @> $2::int[]
         ORDER BY created_at, id LIMIT 1 FOR UPDATE`,
        [dto.reason, ids],
      );
      if (existing) {
        await this.countRepeat(m, Number(existing.id), key, details);
        return { id: Number(existing.id), video_ids: ids, merged: true };
      }
      const [{ id }] = await m.query<{ id: number }[]>(
        `INSERT INTO removal_requests (video_ids, reason, details, contact, reporter_keys, filed_by)
         VALUES ($1::int[], $2, $3, $4, ARRAY[$5::varchar], $5::varchar) RETURNING id`,
        [ids, dto.reason, details, dto.contact, key],
      );
      return { id: Number(id), video_ids: ids, merged: false };
    });
  }

  /**
   * A page of one list, with the totals by reason. Open requests come in this order: urgent reasons (underage,
   * no-consent, illegal) first; then those reported by the most senders; then each sender's turn (their oldest
   * open request of that urgency before their second, so one sender's backlog waits behind everyone else's
   * first); then oldest first. Closed ones: most recently closed first.
   */
  async list(query: RemovalRequestListQuery): Promise<RemovalRequestListDto> {
    const { state, page, limit } = query;
    const reason = query.reason ?? null;
    const offset = (page - 1) * limit;
    const rows =
      state === 'open'
        ? await this.db.query<RemovalRequestRow[]>(
            `WITH queue AS (
               SELECT ${COLUMNS}, filed_by, reason = ANY($1::varchar[]) AS urgent
               FROM removal_requests WHERE state = 'open'
             ), ranked AS (
               SELECT queue.*, row_number() OVER (
                 PARTITION BY urgent, coalesce(filed_by, 'request ' || id) ORDER BY created_at, id
               ) AS sender_turn
               FROM queue
             )
             SELECT ${COLUMNS} FROM ranked WHERE $2::varchar IS NULL OR reason = $2
             ORDER BY urgent DESC, reporters DESC, sender_turn, created_at, id
             LIMIT $3 OFFSET $4`,
            [URGENT_REASONS, reason, limit, offset],
          )
        : await this.db.query<RemovalRequestRow[]>(
            `SELECT ${COLUMNS} FROM removal_requests WHERE state <> 'open' AND ($1::varchar IS NULL OR reason = $1)
             ORDER BY closed_at DESC, id DESC LIMIT $2 OFFSET $3`,
            [reason, limit, offset],
          );
    const counts = await this.counts(state);
    const total = reason ? counts[reason] : REMOVAL_REASONS.reduce((sum, r) => sum + counts[r], 0);
    return { data: await this.withVideos(rows), page, limit, total, counts };
  }

  /**
   * The open requests at a glance: how many, how long they have waited (by when they were first filed, in the
   * bands of `OPEN_AGE_BANDS`), and how many of each reason, every reason listed.
   */
  async openSummary(): Promise<OpenRemovalSummary> {
    const [row] = await this.db.query<Record<string, number | string | Date | null>[]>(
      `SELECT count(*)::int AS open, min(created_at) AS oldest,
              ${OPEN_AGE_BANDS.map((band, i) => `count(*) FILTER (WHERE created_at <= now() - make_interval(days => $${i * 2 + 1}) AND created_at > now() - make_interval(days => $${i * 2 + 2}))::int AS "${band.band}"`).join(', ')},
              ${REMOVAL_REASONS.map((reason) => `count(*) FILTER (WHERE reason = '${reason}')::int AS "${reason}"`).join(', ')}
       FROM removal_requests WHERE state = 'open'`,
      OPEN_AGE_BANDS.flatMap((band) => [band.from, band.to ?? 100_000]),
    );
    return {
      open: Number(row.open),
      oldest_at: row.oldest === null ? null : iso(row.oldest as Date | string),
      by_age: OPEN_AGE_BANDS.map(({ band }) => ({ band, count: Number(row[band]) })),
      by_reason: REMOVAL_REASONS.map((reason) => ({ reason, count: Number(row[reason]) })),
    };
  }

  async close(id: number, dto: CloseRemovalRequestDto, adminId: string): Promise<{ data: RemovalRequestDto }> {
    // An UPDATE ... RETURNING answers [rows, count] (pg and the PGlite adapter alike).
    const [rows] = await this.db.query<[RemovalRequestRow[], number]>(
      `UPDATE removal_requests SET state = $2, closed_at = now(), closed_by = $3
       WHERE id = $1 AND state = 'open' RETURNING ${COLUMNS}`,
      [id, dto.state, adminId],
    );
    if (rows.length === 0) {
      const [existing] = await this.db.query<{ id: number }[]>('SELECT id FROM removal_requests WHERE id = $1', [id]);
      throw existing ? new ConflictError(REMOVAL_REQUEST_CLOSED) : new NotFoundError(REMOVAL_REQUEST_NOT_FOUND);
    }
    const [request] = await this.withVideos(rows);
    return { data: request };
  }

  /** Counts the filing against each of the sender's budgets; the first one spent refuses it (429). */
  private async spendBudget(senderKey: string, user: RemovalSender['user']): Promise<void> {
    for (const budget of removalBudgetsFor(senderKey, user)) {
      const { isBlocked, timeToBlockExpire, timeToExpire } = await this.budgets.increment(
        budget.key,
        REMOVAL_BUDGET_WINDOW_MS,
        budget.limit,
        0,
        REMOVAL_BUDGET_NAME,
      );
      if (isBlocked) throw new RemovalBudgetExceededError(budget.kind, timeToBlockExpire || timeToExpire);
    }
  }

  /** One more filing of an open request, by the sender `key`. */
  private async countRepeat(m: EntityManager, id: number, key: string, details: string): Promise<void> {
    await m.query(
      `UPDATE removal_requests SET
         reports = reports + 1,
         last_reported_at = now(),
         reporters = reporters + CASE WHEN $2 = ANY(reporter_keys) OR cardinality(reporter_keys) >= $3 THEN 0 ELSE 1 END,
         reporter_keys = CASE WHEN $2 = ANY(reporter_keys) OR cardinality(reporter_keys) >= $3 THEN reporter_keys
                              ELSE array_append(reporter_keys, $2::varchar) END,
         details = CASE WHEN details = '' THEN $4 ELSE details END
       WHERE id = $1`,
      [id, key, MAX_REPORTER_KEYS, details],
    );
  }

  private async counts(state: 'open' | 'closed'): Promise<RemovalRequestCountsDto> {
    const rows = await this.db.query<{ reason: RemovalReason; n: number }[]>(
      `SELECT reason, count(*)::int AS n FROM removal_requests WHERE (state = 'open') = $1 GROUP BY reason`,
      [state === 'open'],
    );
    const counts = Object.fromEntries(REMOVAL_REASONS.map((r) => [r, 0])) as unknown as RemovalRequestCountsDto;
    for (const row of rows) counts[row.reason] = Number(row.n);
    return counts;
  }

  /** Each request with the videos it names as they are now (title and status, or null once deleted). */
  private async withVideos(rows: RemovalRequestRow[]): Promise<RemovalRequestDto[]> {
    const ids = [...new Set(rows.flatMap((row) => row.video_ids.map(Number)))];
    const byId = new Map((await this.videos.summaries(ids)).map((video) => [video.id, video]));
    return rows.map((row) => ({
      id: Number(row.id),
      reason: row.reason,
      urgent: isUrgent(row.reason),
      videos: row.video_ids.map(Number).map((id): RemovalRequestVideoDto => {
        const video = byId.get(id);
        return { id, title: video?.title ?? null, status: video?.status ?? null };
      }),
      details: row.details,
      contact: row.contact,
      state: row.state,
      reports: Number(row.reports),
      reporters: Number(row.reporters),
      created_at: iso(row.created_at),
      last_reported_at: iso(row.last_reported_at),
      closed_at: row.closed_at === null ? null : iso(row.closed_at),
    }));
  }
}
