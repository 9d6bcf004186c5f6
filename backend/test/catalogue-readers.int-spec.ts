import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { type ChangeEvent, VIDEO_FIELDS, type VideoField } from '../src/common/cache/change-events';
import { InvalidationBus } from '../src/common/cache/invalidation-bus';
import { loadConfig } from '../src/config/app-config';
import type { CatalogueFilter, CataloguePage, CatalogueReader, RelatedIds } from '../src/videos/catalogue/catalogue-reader';
import { SearchIndex } from '../src/videos/catalogue/search-index';
import { SQL_READER_TUNING, SqlCatalogueReader } from '../src/videos/catalogue/sql-catalogue-reader';
import { VIDEO_SORTS } from '../src/videos/dto/list-videos.query';
import { createTestDatabase } from './helpers/test-app';

/**
 * The catalogue's two readers, proven equal: over catalogues and queries that fast-check generates (and shrinks
 * to the smallest that differs), the in-memory index (SearchIndex's reader, at any catalogue size) answers
 * every total, page and related ranking exactly as the SQL reader does, tie for tie: with the index freshly
 * loaded, and again after writes it learned of from announcements. The SQL reader is also run with its other
 * plans forced (pages read from the listing's far end, searches collected before sorting). On PGlite and, with
 * TEST_DATABASE_URL, on the PostgreSQL server. Failures print fast-check's seed and path to replay them.
 */

/** Title words: stems shared (bear/bears, work/working), prefixes of each other (hot/hotel), stop words, accents. */
const WORDS = ['hot', 'hotel', 'hottest', 'bear', 'bears', 'beach', 'pool', 'poolside', 'gym', 'workouts', 'working', 'the', 'and', 'muscle', 'café', 'x1y2', 'Runner'];
const CATEGORIES = ['bears', 'outdoor', 'gym', 'vintage'];
const PERFORMERS = ['ace', 'bo', 'cruz', 'dex', 'eli'];
const TAGS = ['muscle', 'pool', 'tattoo'];
const STATUSES = ['ready', 'ready', 'ready', 'ready', 'processing', 'failed'] as const;

interface GeneratedVideo {
  title: string;
  atg: string;
  jtg: string;
  categories: string[];
  performers: string[];
  tags: string[];
  views: number;
  likes: number;
  featured: number;
  duration: number | null;
  /** The tallest rendition's lines, or unknown. */
  height: number | null;
  /** Upload time: a few days, with microsecond ties and near-ties. */
  day: number;
  micros: number;
  trending: number;
  status: (typeof STATUSES)[number];
}

const words = (min: number, max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((w) => w.join(' '));
const videoArb: fc.Arbitrary<GeneratedVideo> = fc.record({
  title: words(1, 4),
  atg: fc.oneof(fc.constant(''), words(1, 2)),
  jtg: fc.oneof(fc.constant(''), fc.constant(''), words(1, 2)),
  categories: fc.subarray(CATEGORIES),
  performers: fc.subarray(PERFORMERS, { maxLength: 3 }),
  tags: fc.subarray(TAGS),
  views: fc.nat(4),
  likes: fc.nat(3),
  featured: fc.constantFrom(0, 0, 0, 1, 2),
  duration: fc.option(fc.integer({ min: 1, max: 4 }), { nil: null, freq: 4 }),
  height: fc.option(fc.constantFrom(240, 480, 720, 1080, 2160), { nil: null, freq: 4 }),
  day: fc.nat(3),
  micros: fc.constantFrom(0, 0, 1, 123_456),
  trending: fc.constantFrom(0, 0, 1, 1.5, 3),
  status: fc.constantFrom(...STATUSES),
});

/** A word typed by a visitor: whole, a prefix, another case, or something the search reads differently. */
const typedWord = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 4, arbitrary: fc.constantFrom(...WORDS).chain((w) => fc.integer({ min: 1, max: w.length }).map((n) => w.slice(0, n))) },
  { weight: 1, arbitrary: fc.constantFrom(...WORDS).map((w) => w.toUpperCase()) },
  { weight: 1, arbitrary: fc.constantFrom('zebra', 'workout', 'bearing', 'É', '1', 'x1') },
);
const qArb = fc.oneof(
  { weight: 6, arbitrary: fc.array(typedWord, { minLength: 1, maxLength: 3 }).chain((w) => fc.constantFrom(' ', '-', ', ').map((sep) => w.join(sep))) },
  // Nothing the search reads (no filter at all), and stop words only (matches nothing).
  { weight: 1, arbitrary: fc.constantFrom('!!!', '  ', '-', 'the', 'the and') },
);
/** Each filter absent more often than not, so that listings are long enough to have ties to break. */
const sometimes = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
/** The first upload instant generated (day 0, 0 µs), in ms. */
const FIRST_UPLOAD_MS = Date.UTC(2025, 0, 1, 10);
const filterArb: fc.Arbitrary<CatalogueFilter> = fc
  .record({
    q: sometimes(qArb),
    category: sometimes(fc.constantFrom(...CATEGORIES, 'no-such-category')),
    performer: sometimes(fc.constantFrom(...PERFORMERS)),
    tag: sometimes(fc.constantFrom(...TAGS, 'no-such-tag')),
    featured: sometimes(fc.boolean()),
    // The facts' bounds fall on, between and beyond the values generated, so that ties at a bound are met.
    minDuration: sometimes(fc.integer({ min: 0, max: 5 })),
    maxDuration: sometimes(fc.integer({ min: 0, max: 5 })),
    minHeight: sometimes(fc.constantFrom(1, 720, 2160, 4000)),
    // On an upload instant (micros 0), just after one, and between the ones with microseconds (123.456 ms).
    // Topics left out (a viewer's hidden ones), ids no video has among them.
    exclude: sometimes(
      fc.record({ categories: fc.subarray([...CATEGORIES, 'no-such-category']), performers: fc.subarray(PERFORMERS, { maxLength: 2 }), tags: fc.subarray([...TAGS, 'no-such-tag'], { maxLength: 2 }) })
        .filter((x) => x.categories.length + x.performers.length + x.tags.length > 0)
        .map((x) => ({ categories: [...x.categories].sort(), performers: [...x.performers].sort(), tags: [...x.tags].sort() })),
    ),
    uploadedSince: sometimes(fc.tuple(fc.integer({ min: -1, max: 4 }), fc.constantFrom(0, 1, 123, 124)).map(([day, ms]) => FIRST_UPLOAD_MS + day * 86_400_000 + ms)),
  })
  .map((filter) => Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined)));
const queryArb = fc.record({ filter: filterArb, sort: fc.constantFrom(...VIDEO_SORTS), limit: fc.integer({ min: 1, max: 7 }) });
type Query = { filter: CatalogueFilter; sort: CataloguePage['sort']; limit: number };

/** A write after the index loaded: what the admin, the ingest and the counters change. */
const changeArb = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom('counts', 'featured', 'title', 'taxa', 'media', 'unpublish', 'publish', 'delete', 'upload', 'trending'),
  video: videoArb,
});
type Change = typeof changeArb extends fc.Arbitrary<infer T> ? T : never;

async function insert(db: DataSource, video: GeneratedVideo): Promise<number> {
  const [{ id }] = await db.query<{ id: number }[]>(
    `INSERT INTO videos (slug, url, title, atg_title, jtg_title, views, likes, featured, duration, upload_date, status, trending_score, rendition_height)
     VALUES ('v-' || nextval('videos_id_seq')::text, '/2025/01/v.mp4', $1, $2, $3, $4, $5, $6, $7,
             timestamptz '2025-01-01 10:00:00+00' + make_interval(days => $8) + $9 * interval '1 microsecond', $10, $11, $12)
     RETURNING id`,
    [video.title, video.atg, video.jtg, video.views, video.likes, video.featured, video.duration, video.day, video.micros, video.status, video.trending, video.height],
  );
  // The slug is unique by id; the url (media stem) too.
  await db.query(`UPDATE videos SET slug = 'v-' || id, url = '/2025/01/v-' || id || '.mp4' WHERE id = $1`, [id]);
  await setTaxa(db, Number(id), video);
  return Number(id);
}

async function setTaxa(db: DataSource, id: number, video: Pick<GeneratedVideo, 'categories' | 'performers' | 'tags'>): Promise<void> {
  await db.query('DELETE FROM video_categories WHERE video_id = $1', [id]);
  await db.query('DELETE FROM video_performers WHERE video_id = $1', [id]);
  await db.query('DELETE FROM video_tags WHERE video_id = $1', [id]);
  if (video.tags.length) await db.query('INSERT INTO video_tags (video_id, tag_id) SELECT $1, unnest($2::varchar[])', [id, video.tags]);
  if (video.categories.length) await db.query('INSERT INTO video_categories (video_id, category_id) SELECT $1, unnest($2::varchar[])', [id, video.categories]);
  if (video.performers.length) await db.query('INSERT INTO video_performers (video_id, performer_id) SELECT $1, unnest($2::varchar[])', [id, video.performers]);
}

/** Applies a write to one of `ids` (or a new upload; `ids` follows) and answers what its owner would announce. */
async function apply(db: DataSource, ids: number[], change: Change): Promise<ChangeEvent> {
  if (change.kind === 'upload' || ids.length === 0) {
    const id = await insert(db, { ...change.video, status: 'ready' });
    ids.push(id);
    return { type: 'VideoChanged', ids: [id], fields: ['status', 'media', 'duration', 'thumbnail'] };
  }
  const id = ids[change.pick % ids.length];
  const v = change.video;
  const changed = (...fields: VideoField[]): ChangeEvent => ({ type: 'VideoChanged', ids: [id], fields });
  switch (change.kind) {
    case 'counts':
      await db.query('UPDATE videos SET views = $2, likes = $3, trending_score = $4 WHERE id = $1', [id, v.views, v.likes, v.trending]);
      return { type: 'CountsFlushed', deltas: [[id, 0, 0]] };
    case 'trending':
      await db.query('UPDATE videos SET trending_score = $2 WHERE id = $1', [id, v.trending]);
      return { type: 'RankingRecomputed' };
    case 'featured':
      await db.query('UPDATE videos SET featured = CASE WHEN featured > 0 THEN 0 ELSE 1 END WHERE id = $1', [id]);
      return changed('featured');
    case 'title':
      await db.query('UPDATE videos SET title = $2, upload_date = upload_date + $3 * interval \'1 microsecond\', duration = $4 WHERE id = $1', [id, v.title, v.micros, v.duration]);
      return changed('title', 'upload_date', 'duration');
    case 'taxa':
      await setTaxa(db, id, v);
      return changed('categories', 'performers', 'tags');
    case 'media':
      await db.query('UPDATE videos SET rendition_height = $2 WHERE id = $1', [id, v.height]);
      return changed('media');
    case 'unpublish':
      await db.query(`UPDATE videos SET status = 'failed' WHERE id = $1`, [id]);
      return changed('status');
    case 'publish':
      await db.query(`UPDATE videos SET status = 'ready' WHERE id = $1`, [id]);
      return changed('status');
    case 'delete':
      await db.query('DELETE FROM videos WHERE id = $1', [id]);
      ids.splice(ids.indexOf(id), 1);
      return { type: 'VideoChanged', ids: [id], fields: VIDEO_FIELDS };
  }
}

/** The SQL reader as the index's fallback, counting what it was asked: the index must answer these queries itself. */
function counting(reader: CatalogueReader): CatalogueReader & { calls: number } {
  const counted = {
    calls: 0,
    total: (filter: CatalogueFilter) => (counted.calls++, reader.total(filter)),
    pageIds: (page: CataloguePage, total: number) => (counted.calls++, reader.pageIds(page, total)),
    related: (id: number) => (counted.calls++, reader.related(id)),
  };
  return counted;
}

describe('Catalogue readers: the index answers as the database does (property-based, integration)', () => {
  let db: DataSource;
  let close: () => Promise<void>;
  let search: SearchIndex;
  let bus: InvalidationBus;

  beforeAll(async () => {
    ({ db, close } = await createTestDatabase());
    for (const id of CATEGORIES) await db.query('INSERT INTO categories (id, name) VALUES ($1, $1)', [id]);
    for (const id of PERFORMERS) await db.query('INSERT INTO performers (id, name) VALUES ($1, $1)', [id]);
    for (const id of TAGS) await db.query('INSERT INTO tags (id, name) VALUES ($1, $1)', [id]);
    // The index at any size: the production threshold (SEARCH_INDEX_MIN_VIDEOS) is only when it is worth it.
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SEARCH_INDEX_MIN_VIDEOS: '0' });
    bus = new InvalidationBus(config);
    search = new SearchIndex(db, bus, config);
  });
  afterAll(async () => {
    search?.onApplicationShutdown();
    await close?.();
  });

  /** Every page of the query (and one past the end) from each reader, and every total, against the SQL reader's. */
  async function expectSameListing(readers: Record<string, CatalogueReader>, expected: SqlCatalogueReader, query: Query): Promise<void> {
    const total = await expected.total(query.filter);
    const pages = Math.ceil(total / query.limit) + 1;
    for (const [name, reader] of Object.entries(readers)) {
      expect(await reader.total(query.filter), `${name}: total of ${JSON.stringify(query.filter)}`).toBe(total);
    }
    for (let page = 1; page <= pages; page++) {
      const asked: CataloguePage = { ...query.filter, sort: query.sort, limit: query.limit, page };
      const ids = await expected.pageIds(asked, total);
      expect(ids.length, `page ${page} of ${total} by ${query.limit}`).toBe(Math.max(0, Math.min(query.limit, total - (page - 1) * query.limit)));
      for (const [name, reader] of Object.entries(readers)) {
        expect(await reader.pageIds(asked, total), `${name}: ${JSON.stringify(asked)}`).toEqual(ids);
      }
    }
  }

  async function expectSameRelated(readers: Record<string, CatalogueReader>, expected: SqlCatalogueReader): Promise<void> {
    const published = await db.query<{ id: number }[]>(`SELECT id FROM videos WHERE status = 'ready' ORDER BY id`);
    for (const { id } of published) {
      const want: RelatedIds = await expected.related(Number(id));
      for (const [name, reader] of Object.entries(readers)) {
        expect(await reader.related(Number(id)), `${name}: related of ${id}`).toEqual(want);
      }
    }
  }

  it('gives every total, page and related ranking alike, freshly loaded and after announced writes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.array(videoArb, { maxLength: 8 }), fc.array(videoArb, { minLength: 10, maxLength: 40, size: 'max' })),
        fc.array(queryArb, { minLength: 1, maxLength: 10 }),
        fc.array(changeArb, { maxLength: 6 }),
        fc.constantFrom(1, 2, 200),
        async (catalogue, queries, changes, relatedPerTaxon) => {
          // Deleted row by row, so that the triggers keep catalogue_counts (TRUNCATE would skip them).
          await db.query('DELETE FROM videos');
          const ids: number[] = [];
          for (const video of catalogue) ids.push(await insert(db, video));
          await search.load();
          expect(search.ready).toBe(true);

          const tuning = { ...SQL_READER_TUNING, relatedPerTaxon };
          const sql = new SqlCatalogueReader(db, tuning);
          const fallback = counting(sql);
          const readers = {
            index: search.reader(fallback, { relatedPerTaxon }),
            // The SQL reader's other plans: deep pages from the far end, searches collected then sorted (or walked).
            'sql, from the end': new SqlCatalogueReader(db, { ...tuning, reverseFromOffset: 0, walkPerMatch: 0 }),
            'sql, walking': new SqlCatalogueReader(db, { ...tuning, walkPerMatch: Number.POSITIVE_INFINITY }),
          };
          for (const query of queries) await expectSameListing(readers, sql, query);
          await expectSameRelated(readers, sql);

          // Writes the index learns of from the owner's announcements, as in the API (the bus is local here).
          for (const change of changes) bus.publish(await apply(db, ids, change));
          for (const query of queries) await expectSameListing(readers, sql, query);
          await expectSameRelated(readers, sql);
          expect(fallback.calls, 'answers the index left to the database').toBe(0);
        },
      ),
      { numRuns: Number(process.env.CATALOGUE_RUNS ?? 40) },
    );
  }, 600_000);
});
