import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { TaxonDto } from './dto/taxon.dto';

export type TaxonKind = 'categories' | 'performers';

const JOIN: Record<TaxonKind, { table: string; column: string }> = {
  categories: { table: 'video_categories', column: 'category_id' },
  performers: { table: 'video_performers', column: 'performer_id' },
};

@Injectable()
export class TaxonomyService {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every category or performer with the number of published videos carrying it, by name. */
  async list(kind: TaxonKind): Promise<TaxonDto[]> {
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
