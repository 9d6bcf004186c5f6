import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { TaxaRepository } from '../taxa/taxa.repository';
import { TaxonomyService } from '../taxonomy/taxonomy.service';
import type { PageQuery } from '../videos/dto/list-videos.query';
import type { VideoCardPageDto } from '../videos/dto/video.dto';
import { VideosRepository } from '../videos/videos.repository';
import { iso } from '../common/utils/iso';
import { VideosService } from '../videos/videos.service';
import type { FollowedPerformerDto, FollowingListDto, FollowStateDto } from './dto/following.dto';
import { ConflictError, InvalidInputError, NotFoundError } from '../common/errors/domain-errors';
import { ListsErrorCode } from './lists-errors';

/** How many performers one member may follow: a list to read at a glance, and a feed that stays cheap. */
export const FOLLOW_CAP = 500;

export const PERFORMER_NOT_FOUND = 'Performer not found';
export const BAD_PERFORMER_ID = 'performerId must be a performer id (lowercase letters, digits and dashes, at most 100)';
export const FOLLOW_LIMIT = `You can follow at most ${FOLLOW_CAP} performers: unfollow one first`;

/** Ids as slugify makes them (@hunktube/shared), as long as the column allows. */
const PERFORMER_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The performers a member follows (owns `performer_follows`) and the feed of their newest videos. Following is
 * idempotent both ways, like the other lists.
 */
@Injectable()
export class FollowsService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly taxa: TaxaRepository,
    private readonly taxonomy: TaxonomyService,
    private readonly repository: VideosRepository,
    private readonly videos: VideosService,
  ) {}

  async following(user: AuthUser): Promise<FollowingListDto> {
    const rows = await this.followRows(user.id);
    if (rows.length === 0) return { data: [] };
    // Names as they are now; counts from the taxonomy's cached list (what /api/performers answers).
    const [refs, performers] = await Promise.all([this.taxa.refs('performers', rows.map((row) => row.performer_id)), this.taxonomy.list('performers')]);
    const names = new Map(refs.map((ref) => [ref.id, ref.name]));
    const counts = new Map(performers.map((p) => [p.id, p.video_count]));
    const data: FollowedPerformerDto[] = rows.flatMap((row) => {
      const name = names.get(row.performer_id);
      return name === undefined
        ? []
        : [{ id: row.performer_id, name, video_count: counts.get(row.performer_id) ?? 0, followed_at: iso(row.created_at) }];
    });
    return { data };
  }

  /** The performers followed, for the account's export: ids, names as they are now, times. */
  async exportFollows(userId: string): Promise<{ performer_id: string; name: string; followed_at: string }[]> {
    const rows = await this.followRows(userId);
    const names = new Map((await this.taxa.refs('performers', rows.map((row) => row.performer_id))).map((ref) => [ref.id, ref.name]));
    return rows.map((row) => ({ performer_id: row.performer_id, name: names.get(row.performer_id) ?? row.performer_id, followed_at: iso(row.created_at) }));
  }

  /** The member's follows, most recent first (ties by performer id). */
  private followRows(userId: string): Promise<{ performer_id: string; created_at: Date | string }[]> {
    return this.db.query('SELECT performer_id, created_at FROM performer_follows WHERE user_id = $1 ORDER BY created_at DESC, performer_id', [userId]);
  }

  async follow(user: AuthUser, performerId: string): Promise<FollowStateDto> {
    checkId(performerId);
    if ((await this.taxa.refs('performers', [performerId])).length === 0) throw new NotFoundError(PERFORMER_NOT_FOUND);
    // One statement: a member racing their own follows may pass the cap by those few at most.
    const rows = await this.db.query<unknown[]>(
      `WITH added AS (
         INSERT INTO performer_follows (user_id, performer_id)
         SELECT $1, $2 WHERE (SELECT count(*) FROM performer_follows WHERE user_id = $1) < $3
         ON CONFLICT DO NOTHING RETURNING 1
       )
       SELECT (SELECT count(*) FROM added)::int AS added,
              EXISTS (SELECT 1 FROM performer_follows WHERE user_id = $1 AND performer_id = $2) AS existed`,
      [user.id, performerId, FOLLOW_CAP],
    );
    const [{ added, existed }] = rows as { added: number; existed: boolean }[];
    if (Number(added) === 0 && !existed) throw new ConflictError(FOLLOW_LIMIT, ListsErrorCode.FollowLimit);
    return { following: true };
  }

  async unfollow(user: AuthUser, performerId: string): Promise<FollowStateDto> {
    checkId(performerId);
    await this.db.query('DELETE FROM performer_follows WHERE user_id = $1 AND performer_id = $2', [user.id, performerId]);
    return { following: false };
  }

  /** The newest published videos of the performers the member follows, each once, newest upload first. */
  async feed(user: AuthUser, query: PageQuery): Promise<VideoCardPageDto> {
    const rows = await this.db.query<{ performer_id: string }[]>('SELECT performer_id FROM performer_follows WHERE user_id = $1', [user.id]);
    const { ids, total } = await this.repository.newestWithPerformers(
      rows.map((row) => row.performer_id),
      query.limit,
      (query.page - 1) * query.limit,
    );
    return { data: await this.videos.cardsByIds(ids), page: query.page, limit: query.limit, total };
  }
}

function checkId(performerId: string): void {
  if (performerId.length > 100 || !PERFORMER_ID.test(performerId)) throw new InvalidInputError(BAD_PERFORMER_ID);
}
