import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { TaxonDto } from './dto/taxon.dto';

export type TaxonKind = 'categories' | 'performers';

const JOIN: Record<TaxonKind, { table: string; column: string }> = {
  categories: { table: 'video_categories', column: 'category_id' },
  performers: { table: 'video_performers', column: 'performer_id' },
};

/** The lists change when admins edit; their counts may lag this long. */
export const TAXON_LIST_TTL_MS = 60_000;

@Injectable()
export class TaxonomyService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(CACHE_MANAGER) private readonly cache: Cache,
  ) {}

  /** Every category or performer with the number of published videos carrying it, by name. */
  list(kind: TaxonKind): Promise<TaxonDto[]> {
    return this.cache.wrap(`taxonomy:${kind}`, () => this.query(kind), TAXON_LIST_TTL_MS);
  }

  private async query(kind: TaxonKind): Promise<TaxonDto[]> {
    const { table, column } = JOIN[kind];
    const rows = await this.db.query<TaxonDto[]>(
      `SELECT t.id, t.name, COALESCE(n.video_count, 0)::int AS video_count
       FROM ${kind} t
       LEFT JOIN (
         SELECT j.${column} AS id, count(*) AS video_count
         FROM ${table} j JOIN videos v ON v.id = j.video_id AND v.status = 'ready'
         GROUP BY j.${column}
       ) n ON n.id = t.id
       ORDER BY lower(t.name), t.id`,
    );
    return rows.map((r) => ({ id: r.id, name: r.name, video_count: Number(r.video_count) }));
  }
}
