import { describe, expect, it } from 'vitest';
import { rng as random } from '../../database/seeds/catalog-generator';
import { VIDEO_SORTS as SORTS, type VideoSort } from '../dto/list-videos.query';
import { prefixesOf } from './search-index';
import { type IndexedVideo, type TaxonFilter, TitleIndex } from './title-index';

/**
 * What PostgreSQL answers: every prefix starts one of the video's lexemes, the video carries the category and
 * performer asked for; ORDER BY the sort's keys, id DESC. No prefix and no taxon: nothing.
 */
function reference(videos: Map<number, IndexedVideo>, prefixes: string[], sort: VideoSort, taxa: TaxonFilter = {}): number[] {
  const keys = (v: IndexedVideo): number[] => {
    switch (sort) {
      case 'newest':
        return [v.uploadUs];
      case 'most-viewed':
        return [v.views];
      case 'top-rated':
        return [v.likes, v.views];
      case 'longest':
        return [v.duration ?? -1];
      case 'trending':
        return [v.trending];
    }
  };
  const hasTaxa = taxa.category !== undefined || taxa.performer !== undefined;
  const matches = [...videos.values()].filter(
    (v) =>
      (prefixes.length > 0 || hasTaxa) &&
      prefixes.every((p) => v.lexemes.some((lexeme) => lexeme.startsWith(p))) &&
      (taxa.category === undefined || (v.categories ?? []).includes(taxa.category)) &&
      (taxa.performer === undefined || (v.performers ?? []).includes(taxa.performer)),
  );
  return matches
    .sort((a, b) => {
      const ka = keys(a);
      const kb = keys(b);
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
      return b.id - a.id;
    })
    .map((v) => v.id);
}

/**
 * SqlCatalogueReader.related's SQL: candidates are each of the video's taxa's `perTaxon` most viewed (views, id
 * descending); ranked by shared performers, shared categories, views, id; else the trending order's first.
 */
function referenceRelated(videos: Map<number, IndexedVideo>, id: number, perTaxon: number, limit: number, fallback: number) {
  const mine = videos.get(id)!;
  const byViews = [...videos.values()].sort((a, b) => b.views - a.views || b.id - a.id);
  const candidates = new Set<IndexedVideo>();
  for (const [field, taxa] of [['performers', mine.performers ?? []], ['categories', mine.categories ?? []]] as const) {
    for (const taxon of taxa) for (const v of byViews.filter((w) => (w[field] ?? []).includes(taxon)).slice(0, perTaxon)) candidates.add(v);
  }
  candidates.delete(mine);
  if (candidates.size === 0) {
    const hot = [...videos.values()].sort((a, b) => b.trending - a.trending || b.id - a.id).map((v) => v.id);
    return { related: false, ids: hot.filter((other) => other !== id).slice(0, fallback) };
  }
  const shared = (v: IndexedVideo, field: 'performers' | 'categories') => (v[field] ?? []).filter((t) => (mine[field] ?? []).includes(t)).length;
  const ranked = [...candidates].sort(
    (a, b) => shared(b, 'performers') - shared(a, 'performers') || shared(b, 'categories') - shared(a, 'categories') || b.views - a.views || b.id - a.id,
  );
  return { related: true, ids: ranked.slice(0, limit).map((v) => v.id) };
}

const WORDS = ['hot', 'hotel', 'hottest', 'bear', 'beach', 'bea', 'pool', 'poolsid', 'gym', 'muscl', 'twink', 'x1y2', 'café', 'o'];
/** Categories big and small; one named like a word, which a prefix must not reach. */
const CATEGORIES = ['bears', 'outdoor', 'hot', 'gym', 'vintage', 'rare'];
const PERFORMERS = Array.from({ length: 12 }, (_, i) => `performer-${i}`);

function video(next: () => number, id: number): IndexedVideo {
  const words = Array.from({ length: 1 + Math.floor(next() * 5) }, () => WORDS[Math.floor(next() ** 2 * WORDS.length)]);
  const some = (from: string[], most: number) =>
    [...new Set(Array.from({ length: Math.floor(next() * (most + 1)) }, () => from[Math.floor(next() ** 2 * from.length)]))];
  return {
    id,
    lexemes: words,
    categories: some(CATEGORIES, 3),
    performers: some(PERFORMERS, 2),
    uploadUs: 1_700_000_000_000_000 + Math.floor(next() * 50) * 1_000_001, // ties on purpose
    views: Math.floor(next() * 20),
    likes: Math.floor(next() * 5),
    duration: next() < 0.1 ? null : 1 + Math.floor(next() * 10),
    trending: next() < 0.3 ? 0 : Math.floor(next() * 1000) / 7,
  };
}

function expectSame(index: TitleIndex, videos: Map<number, IndexedVideo>, next: () => number): void {
  // The whole catalogue: every video, in each sort's order (the reference with a prefix every lexeme has).
  for (const sort of SORTS) {
    const everything = reference(new Map([...videos].map(([id, v]) => [id, { ...v, lexemes: [...v.lexemes, ''] }])), [''], sort);
    const limit = 1 + Math.floor(next() * 40);
    for (let page = 0; page < Math.ceil(everything.length / limit) + 1; page++) {
      const got = index.all(sort, page * limit, limit);
      expect(got.total).toBe(videos.size);
      expect(got.ids, `all ${sort} page ${page} of ${limit}`).toEqual(everything.slice(page * limit, page * limit + limit));
    }
  }
  const queries = [['hot'], ['bea'], ['hot', 'bea'], ['poo', 'gym'], ['zebra'], ['h'], ['café'], [], ['o', 'hot', 'b']];
  for (const prefixes of queries) {
    for (const sort of SORTS) {
      const expected = reference(videos, prefixes, sort);
      const limit = 1 + Math.floor(next() * 30);
      const pages = Math.ceil(expected.length / limit) + 1;
      for (let page = 0; page < pages; page++) {
        const got = index.search(prefixes, sort, page * limit, limit);
        expect(got.total).toBe(expected.length);
        expect(got.ids, `${prefixes.join('&')} ${sort} page ${page} of ${limit}`).toEqual(expected.slice(page * limit, page * limit + limit));
      }
    }
  }
  const filters: [string[], TaxonFilter][] = [
    [[], { category: 'bears' }], [[], { category: 'rare' }], [[], { category: 'nobody' }], [[], { performer: 'performer-0' }],
    [[], { performer: 'performer-11' }], [[], { category: 'hot', performer: 'performer-1' }], [['hot'], { category: 'outdoor' }],
    [['h'], { category: 'gym', performer: 'performer-0' }],
  ];
  for (const [prefixes, taxa] of filters) {
    for (const sort of SORTS) {
      const expected = reference(videos, prefixes, sort, taxa);
      const limit = 1 + Math.floor(next() * 30);
      for (let page = 0; page < Math.ceil(expected.length / limit) + 1; page++) {
        const got = index.search(prefixes, sort, page * limit, limit, taxa);
        expect(got.total).toBe(expected.length);
        expect(got.ids, `${prefixes.join('&')} ${JSON.stringify(taxa)} ${sort} page ${page}`).toEqual(expected.slice(page * limit, page * limit + limit));
      }
    }
  }
  // A category named like a word is not a lexeme: the prefix finds titles only.
  expect(index.search(['hot'], 'newest', 0, 0).total).toBe(reference(videos, ['hot'], 'newest').length);
  const sample = [...videos.keys()].filter(() => next() < 0.15);
  for (const id of sample) {
    const perTaxon = 1 + Math.floor(next() * 40);
    expect(index.related(id, perTaxon, 24, 6), `related ${id} (${perTaxon})`).toEqual(referenceRelated(videos, id, perTaxon, 24, 6));
  }
}

describe('TitleIndex', () => {
  it('answers what PostgreSQL would, for every sort and page, as videos come, change and go', () => {
    const next = random(42);
    const index = new TitleIndex();
    const videos = new Map<number, IndexedVideo>();
    let nextId = 1;
    for (let i = 0; i < 400; i++) {
      const v = video(next, nextId++);
      videos.set(v.id, v);
      index.upsert(v);
    }
    expectSame(index, videos, next);

    for (let round = 0; round < 6; round++) {
      // A flush: counts of some videos move (a few, then many: merged, then sorted whole).
      const touched = [...videos.values()].filter(() => next() < (round % 2 ? 0.05 : 0.5));
      for (const v of touched) {
        const changed = { ...v, views: v.views + Math.floor(next() * 30), likes: v.likes + Math.floor(next() * 3), trending: next() * 100 };
        videos.set(v.id, changed);
        index.setCounts(v.id, changed.views, changed.likes, changed.trending);
      }
      // Edits: new titles, dates, durations; removals; new videos (reusing freed slots).
      for (const v of [...videos.values()].filter(() => next() < 0.05)) {
        const edited = { ...video(next, v.id), views: v.views, likes: v.likes };
        videos.set(v.id, edited);
        index.upsert(edited);
      }
      for (const v of [...videos.values()].filter(() => next() < 0.05)) {
        videos.delete(v.id);
        index.remove(v.id);
      }
      for (let i = 0; i < 30; i++) {
        const v = video(next, nextId++);
        videos.set(v.id, v);
        index.upsert(v);
      }
      expect(index.size).toBe(videos.size);
      expectSame(index, videos, next);
    }
  });

  it('pages a dense match by walking the order and a sparse one by its ranks, with the same answers', () => {
    const index = new TitleIndex();
    const videos = new Map<number, IndexedVideo>();
    for (let id = 1; id <= 5000; id++) {
      const v: IndexedVideo = {
        id, lexemes: id % 1000 === 0 ? ['rare', 'common'] : ['common'], uploadUs: id * 10, views: id % 97, likes: id % 13, duration: id % 50 || null, trending: id % 7,
      };
      videos.set(id, v);
      index.upsert(v);
    }
    for (const sort of SORTS) {
      const common = reference(videos, ['common'], sort);
      for (const offset of [0, 24, 2400, 2500, 4975, 4999]) {
        expect(index.search(['common'], sort, offset, 24).ids).toEqual(common.slice(offset, offset + 24));
      }
      expect(index.search(['rar'], sort, 0, 24).ids).toEqual(reference(videos, ['rar'], sort));
      expect(index.search(['common'], sort, 5000, 24)).toEqual({ total: 5000, ids: [] });
    }
    // The first of each order goes last: everything between moves up one place, and its rank with it.
    for (const sort of SORTS) {
      const first = videos.get(reference(videos, ['common'], sort)[0])!;
      const last = { ...first, views: -1, likes: -1, trending: -1, uploadUs: -1, duration: null };
      videos.set(first.id, last);
      index.upsert(last);
      expect(index.search(['rar'], sort, 0, 24).ids, sort).toEqual(reference(videos, ['rar'], sort));
    }
    // A few videos move (merged into the orders, not sorted whole): ranks after them must move too.
    const next = random(7);
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 40; i++) {
        const id = 1 + Math.floor(next() * 5000);
        const v = videos.get(id)!;
        const moved = { ...v, views: Math.floor(next() * 100), likes: Math.floor(next() * 13), trending: next() * 7, uploadUs: Math.floor(next() * 50_000) };
        videos.set(id, moved);
        index.upsert(moved);
      }
      for (const sort of SORTS) {
        expect(index.search(['rar'], sort, 0, 24).ids, `${sort} round ${round}`).toEqual(reference(videos, ['rar'], sort));
        expect(index.search(['common'], sort, 2400, 24).ids).toEqual(reference(videos, ['common'], sort).slice(2400, 2424));
      }
    }
  });

  it('ranks related videos as the SQL does, and falls back to the trending order when nothing is shared', () => {
    const index = new TitleIndex();
    const add = (v: Partial<IndexedVideo> & { id: number }) =>
      index.upsert({ lexemes: [], uploadUs: v.id, views: 0, likes: 0, duration: 1, trending: 0, ...v });
    add({ id: 1, performers: ['ann'], categories: ['bears', 'gym'] });
    add({ id: 2, performers: ['ann'], views: 1 }); // one performer
    add({ id: 3, categories: ['bears', 'gym'], views: 50 }); // two categories
    add({ id: 4, categories: ['bears'], views: 90 }); // one category, most viewed
    add({ id: 5, categories: ['vintage'], trending: 9 });
    add({ id: 6, trending: 9 });
    add({ id: 7, performers: ['ann'], categories: ['gym'], views: 0 });
    expect(index.related(1, 200, 24, 6)).toEqual({ related: true, ids: [7, 2, 3, 4] });
    // Only each taxon's most viewed is a candidate (the video itself counts before it is left out): ann's 2,
    // bears' 4, gym's 3; 7 drops out.
    expect(index.related(1, 1, 24, 6)).toEqual({ related: true, ids: [2, 3, 4] });
    expect(index.related(1, 200, 2, 6)!.ids).toEqual([7, 2]);
    expect(index.related(6, 200, 24, 6)).toEqual({ related: false, ids: [5, 7, 4, 3, 2, 1] });
    expect(index.related(6, 200, 24, 2)).toEqual({ related: false, ids: [5, 7] });
    expect(index.related(99, 200, 24, 6)).toBeNull(); // not indexed: the database answers
    index.remove(7);
    expect(index.related(1, 200, 24, 6)!.ids).toEqual([2, 3, 4]);
    index.upsert({ id: 2, lexemes: [], uploadUs: 2, views: 1, likes: 0, duration: 1, trending: 0, performers: [] });
    expect(index.related(1, 200, 24, 6)!.ids).toEqual([3, 4]);
  });

  it('forgets a removed video in every sort and every word, and takes a re-added one back', () => {
    const index = new TitleIndex();
    const v: IndexedVideo = { id: 7, lexemes: ['pool', 'parti'], uploadUs: 1, views: 1, likes: 1, duration: 5, trending: 1 };
    index.upsert(v);
    expect(index.search(['par'], 'newest', 0, 10)).toEqual({ total: 1, ids: [7] });
    index.remove(7);
    for (const sort of SORTS) expect(index.search(['p'], sort, 0, 10)).toEqual({ total: 0, ids: [] });
    index.upsert({ ...v, lexemes: ['gym'] });
    expect(index.search(['pool'], 'newest', 0, 10).total).toBe(0);
    expect(index.search(['gy'], 'most-viewed', 0, 10)).toEqual({ total: 1, ids: [7] });
  });
});

describe('prefixesOf', () => {
  it("reads to_tsquery's text of a prefix query, and refuses anything else", () => {
    expect(prefixesOf("'workout':* & 'pool':*")).toEqual(['workout', 'pool']);
    expect(prefixesOf("'o''neil':*")).toEqual(["o'neil"]);
    expect(prefixesOf('')).toEqual([]);
    expect(prefixesOf("'o':* <-> 'neil':*")).toBeNull();
    expect(prefixesOf("'hot' & 'x':*")).toBeNull();
    expect(prefixesOf("'hot':* | 'x':*")).toBeNull();
  });
});
