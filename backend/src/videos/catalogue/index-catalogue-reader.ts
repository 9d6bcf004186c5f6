import type { VideoSort } from '../dto/list-videos.query';
import {
  type CatalogueFilter, type CataloguePage, type CatalogueReader, hasFactFilter, HOT_FALLBACK_LIMIT, RELATED_CANDIDATES_PER_TAXON,
  RELATED_LIMIT, type RelatedIds,
} from './catalogue-reader';
import { toPrefixTsQuery } from './search-query';
import type { SearchPage, TitleIndex } from './title-index';

/** Where an IndexCatalogueReader gets what it reads and what it cannot answer. */
export interface IndexReaderSource {
  /** The index as it stands once announced changes are applied; null while it cannot answer (not loaded, not current). */
  current(): Promise<TitleIndex | null>;
  /**
   * `q` as lexeme prefixes, normalised by PostgreSQL's `to_tsquery('english', …)` (kept per text); [] for stop
   * words only; null when the index cannot represent it (a word PostgreSQL splits into a phrase).
   */
  prefixes(q: string): Promise<string[] | null>;
  /** Answers whatever the index cannot: the SQL reader. */
  fallback: CatalogueReader;
  /** Related candidates per taxon; RELATED_CANDIDATES_PER_TAXON unless a test reaches the bound with fewer. */
  relatedPerTaxon?: number;
}

/**
 * The catalogue read from memory (CatalogueReader's rules): the TitleIndex answers every filter and sort, any
 * page in time proportional to the page. What it cannot answer goes to the source's fallback, the database: any
 * read while the index is not loaded or not current, a `q` PostgreSQL splits into a phrase, and the related row
 * of a video the index does not hold (one published a moment ago, before the announcement was applied).
 */
export class IndexCatalogueReader implements CatalogueReader {
  constructor(private readonly source: IndexReaderSource) {}

  async total(filter: CatalogueFilter): Promise<number> {
    const found = await this.list(filter, 'newest', 0, 0);
    return found ? found.total : this.source.fallback.total(filter);
  }

  async pageIds(page: CataloguePage, total: number): Promise<number[]> {
    const found = await this.list(page, page.sort, (page.page - 1) * page.limit, page.limit);
    return found ? found.ids : this.source.fallback.pageIds(page, total);
  }

  async related(id: number): Promise<RelatedIds> {
    const index = await this.source.current();
    return index?.related(id, this.source.relatedPerTaxon ?? RELATED_CANDIDATES_PER_TAXON, RELATED_LIMIT, HOT_FALLBACK_LIMIT) ?? this.source.fallback.related(id);
  }

  /** The total and one page, or null for the fallback to answer. */
  private async list(filter: CatalogueFilter, sort: VideoSort, offset: number, limit: number): Promise<SearchPage | null> {
    let prefixes: string[] = [];
    // A q without a letter or digit is no filter (the SQL reader's rule too).
    if (filter.q !== undefined && toPrefixTsQuery(filter.q) !== null) {
      const normalised = await this.source.prefixes(filter.q);
      if (!normalised) return null;
      // Only stop words: PostgreSQL matches nothing, whatever else the filter says.
      if (normalised.length === 0) return { total: 0, ids: [] };
      prefixes = normalised;
    }
    const index = await this.source.current();
    if (!index) return null;
    const { category, performer, tag, featured, minDuration, maxDuration, minHeight, uploadedSince, exclude } = filter;
    // The whole catalogue: its order as it is (at 1,000,000 videos the database's deep pages took 40-65 ms).
    if (prefixes.length === 0 && category === undefined && performer === undefined && tag === undefined && featured === undefined && !hasFactFilter(filter)) {
      return index.all(sort, offset, limit);
    }
    return index.search(prefixes, sort, offset, limit, { category, performer, tag, featured, minDuration, maxDuration, minHeight, uploadedSince, exclude });
  }
}
