import { describe, expect, it } from 'vitest';
import { rng as random } from '../../database/seeds/catalog-generator';
import { VIDEO_SORTS as SORTS, type VideoSort } from '../dto/list-videos.query';
import { prefixesOf } from './search-index';
import { type IndexedVideo, TitleIndex } from './title-index';


/** What PostgreSQL answers: every prefix starts one of the video's lexemes; ORDER BY the sort's keys, id DESC. */
function reference(videos: Map<number, IndexedVideo>, prefixes: string[], sort: VideoSort): number[] {
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
  const matches = [...videos.values()].filter(
    (v) => prefixes.length > 0 && prefixes.every((p) => v.lexemes.some((lexeme) => lexeme.startsWith(p))),
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

const WORDS = ['hot', 'hotel', 'hottest', 'bear', 'beach', 'bea', 'pool', 'poolsid', 'gym', 'muscl', 'twink', 'x1y2', 'café', 'o'];

function video(next: () => number, id: number): IndexedVideo {
  const words = Array.from({ length: 1 + Math.floor(next() * 5) }, () => WORDS[Math.floor(next() ** 2 * WORDS.length)]);
  return {
    id,
    lexemes: words,
    uploadUs: 1_700_000_000_000_000 + Math.floor(next() * 50) * 1_000_001, // ties on purpose
    views: Math.floor(next() * 20),
    likes: Math.floor(next() * 5),
    duration: next() < 0.1 ? null : 1 + Math.floor(next() * 10),
    trending: next() < 0.3 ? 0 : Math.floor(next() * 1000) / 7,
  };
}

function expectSame(index: TitleIndex, videos: Map<number, IndexedVideo>, next: () => number): void {
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
