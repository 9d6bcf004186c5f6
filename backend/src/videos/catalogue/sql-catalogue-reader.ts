import type { DataSource } from 'typeorm';
import type { VideoSort } from '../dto/list-videos.query';
import { published } from '../videos.repository';
import {
  type CatalogueFilter, type CataloguePage, type CatalogueReader, hasFactFilter, HOT_FALLBACK_LIMIT,
  RELATED_CANDIDATES_PER_TAXON, RELATED_LIMIT, type RelatedIds,
} from './catalogue-reader';
import { toPrefixTsQuery } from './search-query';

/** How the SQL reader chooses its plans; the defaults are production's, tests move them to reach every plan. */
export interface SqlReaderTuning {
  /**
   * A search page walks the sort's index only while that walk (one random heap read per video passed) is
   * shorter than this many times the matches it would otherwise collect and sort (bitmap reads, in heap order).
   */
  walkPerMatch: number;
  /** Pages that skip fewer rows than this are read forwards: a few milliseconds of index at most. */
  reverseFromOffset: number;
  /** Related candidates per taxon (RELATED_CANDIDATES_PER_TAXON). */
  relatedPerTaxon: number;
}

export const SQL_READER_TUNING: SqlReaderTuning = { walkPerMatch: 0.25, reverseFromOffset: 2_400, relatedPerTaxon: RELATED_CANDIDATES_PER_TAXON };

/**
 * Each sort's keys, most significant first, all descending; `id` last breaks ties. The join tables carry the
 * same columns (copied by triggers, see migration 1800000000000) with `video_id` for the id.
 */
const SORT_KEYS: Record<VideoSort, readonly { column: string; nullsLast?: boolean }[]> = {
  newest: [{ column: 'upload_date' }],
  'most-viewed': [{ column: 'views' }],
  'top-rated': [{ column: 'likes' }, { column: 'views' }],
  longest: [{ column: 'duration', nullsLast: true }],
  trending: [{ column: 'trending_score' }],
};

/**
 * `ORDER BY` for a sort, or its exact reverse (for reading a page from the far end of the listing): the same
 * index walked backwards. Forward orders are the contract's: e.g. `duration DESC NULLS LAST, id DESC`.
 */
function orderBy(sort: VideoSort, alias: string, idColumn: string, reverse = false): string {
  const keys = SORT_KEYS[sort].map(({ column, nullsLast }) => {
    if (!reverse) return `${alias}.${column} DESC${nullsLast ? ' NULLS LAST' : ''}`;
    return `${alias}.${column} ASC${nullsLast ? ' NULLS FIRST' : ''}`;
  });
  return [...keys, `${alias}.${idColumn} ${reverse ? 'ASC' : 'DESC'}`].join(', ');
}

/** Builds positional parameters for raw SQL: `p.add(value)` returns `$n`. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Where a listing's ids come from: a table (alias `t`), its id column and the conditions on it. */
interface Source {
  from: string;
  id: string;
  where: string;
}

/** The taxa a listing is narrowed to, with their join tables (owned by VideosRepository) and catalogue_counts scopes. */
const TAXON_FILTERS = [
  { field: 'category', table: 'video_categories', column: 'category_id', alias: 'vc', scope: 'category', excluded: 'categories' },
  { field: 'performer', table: 'video_performers', column: 'performer_id', alias: 'vp', scope: 'performer', excluded: 'performers' },
  { field: 'tag', table: 'video_tags', column: 'tag_id', alias: 'vt', scope: 'tag', excluded: 'tags' },
] as const;

const taxaOf = (filter: CatalogueFilter) => TAXON_FILTERS.flatMap((taxon) => {
  const id = filter[taxon.field];
  return id === undefined ? [] : [{ ...taxon, id }];
});

/**
 * The cheapest place to read a filter's ids from. A category, performer or tag listing reads its join table,
 * which carries the video's sort keys and published flag with one partial index per sort: an index-only range
 * scan (another taxon given as well is tested per row). Anything else (search, featured, a duration, quality
 * or upload filter, exclusions, mixes with them) reads videos.
 */
function sourceOf(filter: CatalogueFilter, p: Params): Source {
  const tsQuery = filter.q !== undefined ? toPrefixTsQuery(filter.q) : null;
  const taxa = taxaOf(filter);
  const has = (on: string) => (taxon: (typeof taxa)[number]) =>
    `EXISTS (SELECT 1 FROM ${taxon.table} ${taxon.alias} WHERE ${taxon.alias}.video_id = ${on} AND ${taxon.alias}.${taxon.column} = ${p.add(taxon.id)})`;
  if (!tsQuery && filter.featured === undefined && !hasFactFilter(filter) && taxa.length > 0) {
    const [first, ...rest] = taxa;
    const where = [`t.${first.column} = ${p.add(first.id)}`, 't.ready', ...rest.map(has('t.video_id'))];
    return { from: `${first.table} t`, id: 'video_id', where: where.join(' AND ') };
  }
  const where = [published('t'), ...taxa.map(has('t.id'))];
  if (filter.featured !== undefined) where.push(filter.featured ? 't.featured > 0' : 't.featured = 0');
  if (tsQuery) where.push(`t.search_vector @@ to_tsquery('english', ${p.add(tsQuery)})`);
  // A video's own facts: unknown durations and heights (NULL) match no bound.
  if (filter.minDuration !== undefined) where.push(`t.duration >= ${p.add(filter.minDuration)}`);
  if (filter.maxDuration !== undefined) where.push(`t.duration <= ${p.add(filter.maxDuration)}`);
  if (filter.minHeight !== undefined) where.push(`t.rendition_height >= ${p.add(filter.minHeight)}`);
  for (const { table, column, alias, excluded } of TAXON_FILTERS) {
    const ids = filter.exclude?.[excluded];
    if (ids?.length) {
      where.push(`NOT EXISTS (SELECT 1 FROM ${table} ${alias} WHERE ${alias}.video_id = t.id AND ${alias}.${column} = ANY(${p.add(ids)}::varchar[]))`);
    }
  }
  if (filter.uploadedSince !== undefined) where.push(`t.upload_date >= ${p.add(new Date(filter.uploadedSince).toISOString())}::timestamptz`);
  return { from: 'videos t', id: 'id', where: where.join(' AND ') };
}

/** The catalogue_counts row that holds a filter's total, when one does (see migrations 1800000000000, 1865000000000). */
function countedScope(filter: CatalogueFilter): { scope: string; key: string } | null {
  if ((filter.q !== undefined && toPrefixTsQuery(filter.q)) || hasFactFilter(filter)) return null;
  const taxa = taxaOf(filter);
  if (taxa.length === 1 && filter.featured === undefined) return { scope: taxa[0].scope, key: taxa[0].id };
  if (taxa.length === 0) return { scope: filter.featured === undefined ? 'all' : 'featured', key: '' };
  return null;
}

/**
 * The catalogue read from PostgreSQL (CatalogueReader's rules): which ids a listing page holds, how many videos
 * a filter matches, and a video's related ranking. Ids only: the cards come from the videos' row cache (a
 * deferred join done by the caller). Read only; the tables are VideosRepository's. docs/catalogue-queries.md
 * has the plans behind each query.
 */
export class SqlCatalogueReader implements CatalogueReader {
  constructor(
    private readonly db: DataSource,
    private readonly tuning: SqlReaderTuning = SQL_READER_TUNING,
  ) {}

  /** How many published videos match the filter: a counts row when one is kept, else a count over the source. */
  async total(filter: CatalogueFilter): Promise<number> {
    const counted = countedScope(filter);
    if (counted) {
      const rows = await this.db.query<{ scope: string; videos: number }[]>(
        `SELECT scope, videos FROM catalogue_counts WHERE (scope = $1 AND key = $2) OR ($3 AND scope = 'all' AND key = '')`,
        [counted.scope, counted.key, filter.featured === false],
      );
      const of = (scope: string) => Number(rows.find((r) => r.scope === scope)?.videos ?? 0);
      return filter.featured === false ? of('all') - of('featured') : of(counted.scope);
    }
    const p = new Params();
    const source = sourceOf(filter, p);
    const [{ total }] = await this.db.query<{ total: number }[]>(`SELECT count(*)::int AS total FROM ${source.from} WHERE ${source.where}`, p.values);
    return Number(total);
  }

  /**
   * The ids of one page of the listing, in order; `total` is what `total(filter)` answered (it may lag a little).
   * A deep page in the second half of a counted listing (all, featured, a category, a performer, a tag) is read from its
   * far end, the same index backwards, so no page skips more than half the listing: OFFSET costs one index entry
   * per skipped row. Reading from the end needs the exact count, so it is read again from catalogue_counts (one
   * primary-key read) rather than trusting `total`; anything else, and every shallow page, is read forwards.
   */
  async pageIds(query: CataloguePage, total: number): Promise<number[]> {
    const offset = (query.page - 1) * query.limit;
    let fromEnd = false;
    let exact = total;
    if (offset >= this.tuning.reverseFromOffset && offset + query.limit / 2 > total / 2 && countedScope(query)) {
      exact = await this.total(query);
      fromEnd = offset < exact && offset + query.limit / 2 > exact / 2;
    }
    const limit = fromEnd ? Math.min(query.limit, exact - offset) : query.limit;
    const skip = fromEnd ? exact - offset - limit : offset;
    const p = new Params();
    const source = sourceOf(query, p);
    const order = orderBy(query.sort, 't', source.id, fromEnd);
    const page = `ORDER BY ${order} LIMIT ${p.add(limit)} OFFSET ${p.add(skip)}`;
    const sql = (await this.collectsMatches(source, skip + limit, total))
      ? `SELECT t.${source.id} AS id FROM (
           SELECT ${source.id}, ${SORT_KEYS[query.sort].map((k) => k.column).join(', ')} FROM ${source.from} WHERE ${source.where} OFFSET 0
         ) t ${page}`
      : `SELECT t.${source.id} AS id FROM ${source.from} WHERE ${source.where} ${page}`;
    const ids = (await this.db.query<{ id: number }[]>(sql, p.values)).map((row) => Number(row.id));
    return fromEnd ? ids.reverse() : ids;
  }

  /**
   * Whether a search page should collect all its matches (a bitmap of the GIN index, then a sort of just those)
   * rather than walk the sort's index testing each video until the page is reached. The planner guesses the
   * walk's length from the match rate, but each step is a random heap read (and a full-text test): at 1M videos
   * it walked 378 ms for the second page of a 1% word that a bitmap answers in 23 ms. Here the match count is
   * known, so the walk's length is too: (rows to reach) × (catalogue / matches). Only search reads the videos
   * table with a filter the indexes cannot order; the other listings read ordered indexes.
   */
  private async collectsMatches(source: Source, reach: number, matches: number): Promise<boolean> {
    if (!source.where.includes('search_vector') || matches <= 0) return false;
    const catalogue = await this.total({});
    return (reach * catalogue) / matches > this.tuning.walkPerMatch * matches;
  }

  /**
   * Videos sharing a performer or category, ranked by shared performers, then shared categories, then views;
   * when none share anything, up to 6 hot videos by the trending ranking. Never the video itself.
   *
   * Candidates are bounded: the `relatedPerTaxon` (RELATED_CANDIDATES_PER_TAXON) most viewed published videos of each of the
   * video's performers and categories (index-only reads of the join tables' views indexes). Within them the
   * ranking is exact: shared performers and categories are counted per candidate by primary key. A video can
   * only be missed when it is outside the top of every taxon it shares, e.g. a little-watched video sharing
   * two big categories, which a listing of 24 rarely has room for anyway.
   */
  async related(id: number): Promise<RelatedIds> {
    const related = await this.db.query<{ id: number }[]>(
      `WITH mine_p AS (SELECT performer_id FROM video_performers WHERE video_id = $1),
       mine_c AS (SELECT category_id FROM video_categories WHERE video_id = $1),
       candidates AS (
         SELECT x.video_id, x.views FROM mine_p CROSS JOIN LATERAL (
           SELECT p.video_id, p.views FROM video_performers p
           WHERE p.performer_id = mine_p.performer_id AND p.ready
           ORDER BY p.views DESC, p.video_id DESC LIMIT $2
         ) x
         UNION
         SELECT x.video_id, x.views FROM mine_c CROSS JOIN LATERAL (
           SELECT c.video_id, c.views FROM video_categories c
           WHERE c.category_id = mine_c.category_id AND c.ready
           ORDER BY c.views DESC, c.video_id DESC LIMIT $2
         ) x
       )
       SELECT k.video_id AS id FROM candidates k
       WHERE k.video_id <> $1
       ORDER BY
         (SELECT count(*) FROM video_performers p WHERE p.video_id = k.video_id AND p.performer_id IN (SELECT performer_id FROM mine_p)) DESC,
         (SELECT count(*) FROM video_categories c WHERE c.video_id = k.video_id AND c.category_id IN (SELECT category_id FROM mine_c)) DESC,
         k.views DESC, k.video_id DESC
       LIMIT ${RELATED_LIMIT}`,
      [id, this.tuning.relatedPerTaxon],
    );
    if (related.length > 0) return { related: true, ids: related.map((r) => Number(r.id)) };

    const hot = await this.db.query<{ id: number }[]>(
      `SELECT t.id FROM videos t
       WHERE ${published('t')} AND t.id <> $1
       ORDER BY ${orderBy('trending', 't', 'id')} LIMIT ${HOT_FALLBACK_LIMIT}`,
      [id],
    );
    return { related: false, ids: hot.map((r) => Number(r.id)) };
  }
}
