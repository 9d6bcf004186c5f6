import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type {
  CloseRemovalRequestDto,
  CreateRemovalRequestDto,
  RemovalRequestCreatedDto,
  RemovalRequestDto,
  RemovalRequestVideoDto,
} from './dto/removal-request.dto';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { VideosRepository } from '../videos/videos.repository';
import { isUrgent, URGENT_REASONS, videoIdFromAddress, type RemovalReason, type RemovalState } from './removal-request-reasons';

export const REMOVAL_REQUEST_NOT_FOUND = 'Removal request not found';
export const REMOVAL_REQUEST_CLOSED = 'This removal request is already closed';
/** The closed list shows the recent ones; older requests stay in the table. */
export const CLOSED_LIST_LIMIT = 200;

interface RemovalRequestRow {
  id: number;
  video_ids: number[];
  reason: RemovalReason;
  details: string;
  contact: string;
  state: RemovalState;
  created_at: Date | string;
  closed_at: Date | string | null;
}

const COLUMNS = 'id, video_ids, reason, details, contact, state, created_at, closed_at';
const iso = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

/**
 * Content removal requests: anyone may file one naming videos of this site; admins work through the open ones
 * (consent, age and illegality first, then oldest first) and close each as resolved or dismissed.
 */
@Injectable()
export class RemovalRequestsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly videos: VideosRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `requestHost`: the host the form was posted to, which is one of this site's. */
  async create(dto: CreateRemovalRequestDto, requestHost?: string): Promise<RemovalRequestCreatedDto> {
    const hosts = [requestHost, this.config.publicUrl && new URL(this.config.publicUrl).host].filter((h): h is string => !!h);
    const ids: number[] = [];
    for (const url of dto.urls) {
      const id = videoIdFromAddress(url, hosts);
      if (id === null) throw new BadRequestException(`Not the address of a video on this site: ${url.trim() || '(empty)'}`);
      if (!ids.includes(id)) ids.push(id);
    }
    const found = await this.videos.summaries(ids);
    const missing = ids.find((id) => !found.some((row) => row.id === id));
    if (missing !== undefined) {
      throw new BadRequestException(`There is no video ${missing} on this site (it may have been removed already)`);
    }
    const [{ id }] = await this.db.query<{ id: number }[]>(
      'INSERT INTO removal_requests (video_ids, reason, details, contact) VALUES ($1::int[], $2, $3, $4) RETURNING id',
      [ids, dto.reason, dto.details ?? '', dto.contact],
    );
    return { id: Number(id), video_ids: ids };
  }

  async list(state: 'open' | 'closed'): Promise<{ data: RemovalRequestDto[] }> {
    const rows =
      state === 'open'
        ? await this.db.query<RemovalRequestRow[]>(
            `SELECT ${COLUMNS} FROM removal_requests WHERE state = 'open'
             ORDER BY (reason = ANY($1::varchar[])) DESC, created_at, id`,
            [URGENT_REASONS],
          )
        : await this.db.query<RemovalRequestRow[]>(
            `SELECT ${COLUMNS} FROM removal_requests WHERE state <> 'open' ORDER BY closed_at DESC, id DESC LIMIT $1`,
            [CLOSED_LIST_LIMIT],
          );
    return { data: await this.withVideos(rows) };
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
      throw existing ? new ConflictException(REMOVAL_REQUEST_CLOSED) : new NotFoundException(REMOVAL_REQUEST_NOT_FOUND);
    }
    const [request] = await this.withVideos(rows);
    return { data: request };
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
      created_at: iso(row.created_at),
      closed_at: row.closed_at === null ? null : iso(row.closed_at),
    }));
  }
}
