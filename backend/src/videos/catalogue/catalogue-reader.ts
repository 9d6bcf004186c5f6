import { type ExcludedTopics, parseExclude, QUALITY_MIN_HEIGHT, UPLOADED_WITHIN_SECONDS } from '@hunktube/shared';
import type { ListVideosQuery } from '../dto/list-videos.query';

/**
 * What a listing is filtered by: everything of its query but the sort and the page, with `quality` and
 * `uploaded` made absolute (`catalogueFilterOf`), so that both readers compare the same numbers.
 */
export type CatalogueFilter = Pick<ListVideosQuery, 'category' | 'performer' | 'tag' | 'featured' | 'q' | 'minDuration' | 'maxDuration'> & {
  /** The tallest rendition has at least this many lines (`rendition_height`). */
  minHeight?: number;
  /** Uploaded at or after this instant, in milliseconds since the epoch. */
  uploadedSince?: number;
  /** Leaves out every video with any of these categories, performers or tags (sorted ids). */
  exclude?: ExcludedTopics;
};

/** How far `uploaded`'s instant is rounded down: a listing's address makes one cache entry a minute, not one a request. */
export const UPLOADED_STEP_MS = 60_000;

/** A listing query's filter, with `quality` as a height and `uploaded` as an instant (rounded down to the minute) before `now`. */
export function catalogueFilterOf(query: ListVideosQuery, now = Date.now()): CatalogueFilter {
  const filter: CatalogueFilter = {};
  if (query.category !== undefined) filter.category = query.category;
  if (query.performer !== undefined) filter.performer = query.performer;
  if (query.tag !== undefined) filter.tag = query.tag;
  if (query.featured !== undefined) filter.featured = query.featured;
  if (query.q !== undefined) filter.q = query.q;
  if (query.minDuration !== undefined) filter.minDuration = query.minDuration;
  if (query.maxDuration !== undefined) filter.maxDuration = query.maxDuration;
  if (query.quality !== undefined) filter.minHeight = QUALITY_MIN_HEIGHT[query.quality];
  if (query.exclude !== undefined) {
    const exclude = parseExclude(query.exclude);
    if (exclude && (exclude.categories.length || exclude.performers.length || exclude.tags.length)) filter.exclude = exclude;
  }
  if (query.uploaded !== undefined) {
    filter.uploadedSince = Math.floor(now / UPLOADED_STEP_MS) * UPLOADED_STEP_MS - UPLOADED_WITHIN_SECONDS[query.uploaded] * 1000;
  }
  return filter;
}

/** The filter leaving out these topics as well (a member's hidden ones): each kind merged, sorted, each id once. */
export function withExcluded(filter: CatalogueFilter, topics: ExcludedTopics): CatalogueFilter {
  if (!topics.categories.length && !topics.performers.length && !topics.tags.length) return filter;
  const merge = (a: readonly string[] = [], b: readonly string[]) => [...new Set([...a, ...b])].sort();
  const exclude = filter.exclude;
  return {
    ...filter,
    exclude: { categories: merge(exclude?.categories, topics.categories), performers: merge(exclude?.performers, topics.performers), tags: merge(exclude?.tags, topics.tags) },
  };
}

/**
 * The filter with its tag ids read through the synonyms (an alias to the tag it was merged into), so that
 * `tag=muscled` lists what `tag=muscle` does and an excluded alias leaves out its tag.
 */
export function withTagSynonyms(filter: CatalogueFilter, synonyms: ReadonlyMap<string, string>): CatalogueFilter {
  if (synonyms.size === 0 || (filter.tag === undefined && !filter.exclude?.tags.length)) return filter;
  const canonical = (id: string) => synonyms.get(id) ?? id;
  const out = { ...filter };
  if (filter.tag !== undefined) out.tag = canonical(filter.tag);
  if (filter.exclude?.tags.length) out.exclude = { ...filter.exclude, tags: [...new Set(filter.exclude.tags.map(canonical))].sort() };
  return out;
}

/**
 * Whether the filter narrows by a video's own facts (duration, rendition, upload time) or leaves taxa out: what
 * no counts row or join table's index answers, so the readers test it video by video.
 */
export const hasFactFilter = (filter: CatalogueFilter): boolean =>
  filter.exclude !== undefined || filter.minDuration !== undefined || filter.maxDuration !== undefined || filter.minHeight !== undefined || filter.uploadedSince !== undefined;

/** One page of a listing: its filter, sort, page (from 1) and page size. */
export type CataloguePage = CatalogueFilter & Pick<ListVideosQuery, 'sort' | 'page' | 'limit'>;

/** A video's related ranking: `related` false when it is the hot fallback (nothing shared). */
export interface RelatedIds {
  related: boolean;
  ids: number[];
}

export const RELATED_LIMIT = 24;
export const HOT_FALLBACK_LIMIT = 6;
/**
 * Related candidates: the most viewed videos of each of the video's performers and categories, this many
 * each (see `CatalogueReader.related`). 200 per taxon keeps a ranking under ~1,400 candidates on any size.
 */
export const RELATED_CANDIDATES_PER_TAXON = 200;

/**
 * Every read of the catalogue's published videos that a listing, a search or a watch page's related row makes:
 * ids only (the cards come from the videos' row cache). Two implementations answer exactly alike, page for page
 * and tie for tie: `SqlCatalogueReader` (PostgreSQL, the sort keys kept by triggers) and `IndexCatalogueReader`
 * (the in-memory TitleIndex). `test/catalogue-readers.int-spec.ts` runs both over generated catalogues and
 * queries and fails on the first answer that differs. Adding a filter means: this interface (CatalogueFilter),
 * both implementations, and a generator for it in that suite (docs/catalogue-queries.md › "Adding a filter").
 *
 * The rules both follow:
 * - only published videos (`published` of videos.repository.ts) are ever answered;
 * - every sort's keys are descending with the id last (`newest`: upload time to the microsecond; `most-viewed`:
 *   views; `top-rated`: likes, then views; `longest`: duration, unknown last; `trending`: the trending score);
 * - `q` matches when every word of it (at most 8, letters and digits) starts a lexeme of the three titles, as
 *   `to_tsquery('english', 'w1:* & w2:*')` normalises them; a `q` of stop words only matches nothing; a `q`
 *   with no letter or digit is no filter at all;
 * - `category`, `performer`, `tag` and `featured` (true: featured > 0; false: featured = 0) narrow it further;
 * - so do `minDuration` and `maxDuration` (inclusive; a video of unknown duration matches neither), `minHeight`
 *   (rendition_height at least it; unknown matches not) and `uploadedSince` (upload_date at or after it);
 * - `exclude` leaves out every video carrying any of its categories, performers or tags.
 */
export interface CatalogueReader {
  /** How many published videos match the filter. */
  total(filter: CatalogueFilter): Promise<number>;
  /**
   * The ids of one page of the listing, in its sort's order. `total` is what `total(filter)` answered, which a
   * reader may use to choose how to read (it may lag a little; the ids never depend on it).
   */
  pageIds(page: CataloguePage, total: number): Promise<number[]>;
  /**
   * A published video's related videos: those sharing a performer or category, ranked by shared performers,
   * then shared categories, then views and id; candidates are the RELATED_CANDIDATES_PER_TAXON most viewed of
   * each of its taxa; at most RELATED_LIMIT; never the video itself. When none shares anything, the first
   * HOT_FALLBACK_LIMIT of the trending order instead (`related: false`).
   */
  related(id: number): Promise<RelatedIds>;
}
