import { VIDEO_SORTS as SORTS, type VideoSort } from '../dto/list-videos.query';
import { LRUCache } from 'lru-cache';
import type { RelatedIds } from './catalogue-reader';

/** One published video as the index keeps it: its title lexemes, its taxa and the listing sorts' keys. */
export interface IndexedVideo {
  id: number;
  /** The lexemes of its search_vector (tsvector_to_array), exactly as PostgreSQL stemmed them. */
  lexemes: readonly string[];
  /** Its categories', performers' and tags' ids (slugs). */
  categories?: readonly string[];
  performers?: readonly string[];
  tags?: readonly string[];
  /** featured > 0 */
  featured?: boolean;
  /** upload_date in microseconds since the epoch (the database's precision, so ties break as there). */
  uploadUs: number;
  views: number;
  likes: number;
  /** null: unknown, sorted last by `longest`. */
  duration: number | null;
  trending: number;
  /** The tallest rendition's lines (rendition_height); null or absent: unknown. */
  renditionHeight?: number | null;
}

export interface SearchPage {
  total: number;
  ids: number[];
}

/**
 * What a listing is narrowed to besides any title prefixes: a category, a performer and/or a tag (ids), featured or
 * not, and the video's own facts (CatalogueFilter's: inclusive duration bounds, a least rendition height, an
 * upload instant in milliseconds).
 */
export interface TaxonFilter {
  category?: string;
  performer?: string;
  tag?: string;
  featured?: boolean;
  minDuration?: number;
  maxDuration?: number;
  minHeight?: number;
  uploadedSince?: number;
  /** Leaves out the videos having any of these categories, performers or tags. */
  exclude?: { categories: readonly string[]; performers: readonly string[]; tags: readonly string[] };
}

/**
 * Taxa are kept as terms beside the lexemes, under names no lexeme can have (PostgreSQL text holds no NUL), so
 * a prefix never reaches them and a category is matched like an exact word.
 */
const categoryTerm = (id: string) => `\u0000c${id}`;
const performerTerm = (id: string) => `\u0000p${id}`;
const tagTerm = (id: string) => `\u0000t${id}`;
const isCategoryTerm = (name: string) => name.startsWith('\u0000c');
const isPerformerTerm = (name: string) => name.startsWith('\u0000p');
/** The term every featured video has. */
const FEATURED_TERM = '\u0000f';

/** The bytes of recent matches kept (`TitleIndex.matches`): 16 matches of 100,000 videos, or 4 of 1,000,000. */
const MATCHES_KEPT_BYTES = 16 * 1024 * 1024;

/** A duration stands for "unknown" below every real one (durations are > 0). */
const NO_DURATION = -1;
/** Past this share of changed videos a sort is sorted again whole rather than merged. */
const FULL_SORT_SHARE = 1 / 8;

/**
 * The catalogue's titles as an inverted index in memory, with each listing sort's order, so that a search's
 * total and any page of it cost work in proportion to the page, not to the matches (PostgreSQL's full text
 * cannot count or page a common word without visiting every match; docs/catalogue-queries.md §5).
 *
 * - Each video has a slot; its keys live in typed arrays by slot, its lexemes in one pool of term ids.
 * - Each term (lexeme) has a posting list of slots; the terms are kept sorted for prefix ranges.
 * - Each sort has the published slots in its order (`perm`) and each slot's position there (`rank`). A change of
 *   keys marks the slot dirty for the sorts it affects; a read first takes the dirty slots out and merges them
 *   back in their new places (a full sort when many changed).
 *
 * Matching is `search_vector @@ to_tsquery('english', 'w1:* & w2:*')` exactly: every query prefix (already
 * normalised by PostgreSQL, see SearchIndex) must start one of the video's lexemes. Synchronous and pure: the
 * SearchIndex service loads it and keeps it current.
 */
export class TitleIndex {
  private capacity = 0;
  private slots = 0;
  private readonly freeSlots: number[] = [];
  private readonly slotOf = new Map<number, number>();
  private ids = new Int32Array(0);
  private uploadUs = new Float64Array(0);
  private views = new Float64Array(0);
  private likes = new Float64Array(0);
  private duration = new Float64Array(0);
  private trending = new Float64Array(0);
  /** 1 for a featured video (for `featured: false`, which no posting list holds). */
  private featured = new Uint8Array(0);
  /** The tallest rendition's lines; 0 unknown. */
  private height = new Int32Array(0);
  /** Marks for matching (a generation per query, so that nothing needs clearing). */
  private stamp = new Uint32Array(0);
  /** Where a match collects its slots before they are copied out. */
  private matchBuffer = new Int32Array(0);
  private generation = 0;

  // Each slot's term ids: pool[termStart[slot] .. + termCount[slot]]; replaced lists are left as garbage.
  private termStart = new Int32Array(0);
  private termCount = new Uint16Array(0);
  private pool = new Int32Array(1024);
  private poolUsed = 0;
  private poolGarbage = 0;

  private readonly termIdOf = new Map<string, number>();
  private readonly termNames: string[] = [];
  private postings: Int32Array[] = [];
  private postingLength: number[] = [];
  /** Term names in code-unit order (prefixes are contiguous), rebuilt when terms were added. */
  private sortedTerms: { name: string; id: number }[] = [];
  private termsSorted = true;

  private readonly order = new Map<VideoSort, { perm: Int32Array; rank: Int32Array; dirty: Set<number>; all: boolean }>();
  /** Changes whenever what matches what may have changed (a video in or out, new lexemes). */
  private membershipVersion = 0;
  /**
   * Recent matches by query (their slots, until membership changes): paging a listing, or a few viewers' hidden
   * topics interleaved, costs the page rather than the match. Bounded by the bytes of their slots.
   */
  private readonly matches = new LRUCache<string, { version: number; slots: Int32Array; generation: number }>({
    maxSize: MATCHES_KEPT_BYTES,
    sizeCalculation: (match) => match.slots.byteLength + 64,
  });

  constructor() {
    for (const sort of SORTS) this.order.set(sort, { perm: new Int32Array(0), rank: new Int32Array(0), dirty: new Set(), all: true });
  }

  /** Published videos indexed. */
  get size(): number {
    return this.slotOf.size;
  }

  has(id: number): boolean {
    return this.slotOf.has(id);
  }

  /** Rough bytes held: typed arrays, postings, the pool and the terms. */
  get bytes(): number {
    let total = this.capacity * (4 + 8 * 5 + 1 + 4 + 4 + 4 + 2 + 4 * 2 * SORTS.length) + this.pool.byteLength;
    for (const list of this.postings) total += list.byteLength;
    for (const name of this.termNames) total += 40 + name.length * 2;
    return total;
  }

  /** Adds the video or brings it up to date (a no-op when nothing changed). */
  upsert(video: IndexedVideo): void {
    let slot = this.slotOf.get(video.id);
    const isNew = slot === undefined;
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.slots++;
      this.ensureCapacity(this.slots);
      this.slotOf.set(video.id, slot);
      this.ids[slot] = video.id;
      this.termCount[slot] = 0;
      this.membershipVersion++;
    }
    this.setTerms(slot, [
      ...video.lexemes,
      ...(video.categories ?? []).map(categoryTerm),
      ...(video.performers ?? []).map(performerTerm),
      ...(video.tags ?? []).map(tagTerm),
      ...(video.featured ? [FEATURED_TERM] : []),
    ]);
    this.featured[slot] = video.featured ? 1 : 0;
    if (this.height[slot] !== (video.renditionHeight ?? 0)) {
      this.height[slot] = video.renditionHeight ?? 0;
      this.membershipVersion++;
    }
    const duration = video.duration ?? NO_DURATION;
    if (isNew) {
      this.uploadUs[slot] = video.uploadUs;
      this.views[slot] = video.views;
      this.likes[slot] = video.likes;
      this.duration[slot] = duration;
      this.trending[slot] = video.trending;
      for (const sort of SORTS) this.markDirty(sort, slot);
      return;
    }
    if (this.uploadUs[slot] !== video.uploadUs) {
      this.uploadUs[slot] = video.uploadUs;
      this.markDirty('newest', slot);
      this.membershipVersion++;
    }
    if (this.duration[slot] !== duration) {
      this.duration[slot] = duration;
      this.markDirty('longest', slot);
      this.membershipVersion++;
    }
    this.setCounts(video.id, video.views, video.likes, video.trending);
  }

  /** New stored counts and trending score of an indexed video; ignored for one not indexed. */
  setCounts(id: number, views: number, likes: number, trending: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    if (this.views[slot] !== views) {
      this.views[slot] = views;
      this.markDirty('most-viewed', slot);
      this.markDirty('top-rated', slot);
    }
    if (this.likes[slot] !== likes) {
      this.likes[slot] = likes;
      this.markDirty('top-rated', slot);
    }
    this.setTrending(id, trending);
  }

  setTrending(id: number, trending: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined || this.trending[slot] === trending) return;
    this.trending[slot] = trending;
    this.markDirty('trending', slot);
  }

  /** Takes the video out (unpublished or deleted); a no-op when it is not indexed. */
  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.setTerms(slot, []);
    this.featured[slot] = 0;
    this.height[slot] = 0;
    this.slotOf.delete(id);
    this.ids[slot] = 0;
    this.freeSlots.push(slot);
    for (const sort of SORTS) this.markDirty(sort, slot);
    this.membershipVersion++;
  }

  /**
   * Brings the term list and every sort's order up to date now rather than on the next search (a whole sort of
   * 100,000 videos takes tens of milliseconds, which a first search would otherwise wait for).
   */
  prepare(): void {
    this.sortTerms();
    for (const sort of SORTS) this.ordered(sort);
  }

  /** The ids indexed, for a reconciliation to find the ones it no longer saw. */
  indexedIds(): number[] {
    return [...this.slotOf.keys()];
  }

  /**
   * The videos matching every prefix (each already a lexeme prefix as PostgreSQL normalised it) and every
   * filter of `taxa`, how many, and those at [offset, offset + limit) in the sort's order. Nothing given at all:
   * nothing matches (a query of stop words only, as PostgreSQL answers it); use `all` for the whole catalogue.
   */
  search(prefixes: readonly string[], sort: VideoSort, offset: number, limit: number, taxa: TaxonFilter = {}): SearchPage {
    const matched = this.match(prefixes, taxa);
    const total = matched.slots.length;
    if (limit <= 0 || offset >= total) return { total, ids: [] };
    return { total, ids: this.pageOf(matched, sort, offset, Math.min(limit, total - offset)) };
  }

  /**
   * Every indexed (published) video: how many, and those at [offset, offset + limit) in the sort's order, read
   * straight from the order (the whole catalogue's listing, any page, in O(limit)).
   */
  all(sort: VideoSort, offset: number, limit: number): SearchPage {
    const { perm } = this.ordered(sort);
    const total = perm.length;
    const ids: number[] = [];
    for (let i = offset; i < Math.min(total, offset + Math.max(0, limit)); i++) ids.push(this.ids[perm[i]]);
    return { total, ids };
  }

  /**
   * A video's related ranking, as CatalogueReader.related defines it: the candidates are the
   * `perTaxon` most viewed videos (views, then id, descending) of each of its performers and categories; they
   * are ranked by shared performers, then shared categories, then views and id; at most `limit`, never the
   * video itself. When no candidate is left, the `fallback` first videos of the trending order instead. Null
   * when the video is not indexed (not published), for the database to answer.
   */
  related(id: number, perTaxon: number, limit: number, fallback: number): RelatedIds | null {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return null;
    const mine = this.pool.subarray(this.termStart[slot], this.termStart[slot] + this.termCount[slot]);
    const performers = new Set<number>();
    const categories = new Set<number>();
    for (const term of mine) {
      if (isPerformerTerm(this.termNames[term])) performers.add(term);
      else if (isCategoryTerm(this.termNames[term])) categories.add(term);
    }
    const candidates = new Set<number>();
    for (const term of [...performers, ...categories]) {
      const top = this.pageOf(this.matchTerms([[term]]), 'most-viewed', 0, Math.min(perTaxon, this.postingLength[term]));
      for (const candidate of top) if (candidate !== id) candidates.add(this.slotOf.get(candidate)!);
    }
    if (candidates.size === 0) {
      const { perm } = this.ordered('trending');
      const ids: number[] = [];
      for (let i = 0; i < perm.length && ids.length < fallback; i++) if (perm[i] !== slot) ids.push(this.ids[perm[i]]);
      return { related: false, ids };
    }
    const ranked = [...candidates].map((candidate) => {
      let sharedPerformers = 0;
      let sharedCategories = 0;
      const start = this.termStart[candidate];
      for (let i = start; i < start + this.termCount[candidate]; i++) {
        if (performers.has(this.pool[i])) sharedPerformers++;
        else if (categories.has(this.pool[i])) sharedCategories++;
      }
      return { slot: candidate, sharedPerformers, sharedCategories };
    });
    const { views, ids } = this;
    ranked.sort(
      (a, b) =>
        b.sharedPerformers - a.sharedPerformers || b.sharedCategories - a.sharedCategories ||
        views[b.slot] - views[a.slot] || ids[b.slot] - ids[a.slot],
    );
    return { related: true, ids: ranked.slice(0, limit).map((r) => ids[r.slot]) };
  }

  // --- matching ------------------------------------------------------------------------------------------------

  /**
   * Every prefix and every taxon given must match, and `featured: false` leaves the featured out; nothing given
   * matches nothing.
   */
  private match(prefixes: readonly string[], taxa: TaxonFilter = {}): { slots: Int32Array; generation: number } {
    const exact = [
      ...(taxa.category !== undefined ? [categoryTerm(taxa.category)] : []),
      ...(taxa.performer !== undefined ? [performerTerm(taxa.performer)] : []),
      ...(taxa.tag !== undefined ? [tagTerm(taxa.tag)] : []),
      ...(taxa.featured === true ? [FEATURED_TERM] : []),
    ];
    const unfeatured = taxa.featured === false;
    const unique = [...new Set(prefixes)];
    const facts = [taxa.minDuration, taxa.maxDuration, taxa.minHeight, taxa.uploadedSince, taxa.exclude?.categories.join(' '), taxa.exclude?.performers.join(' '), taxa.exclude?.tags.join(' ')].join(',');
    const key = [...unique.sort(), '', ...exact, unfeatured ? '\u0001' : '', facts].join('\u0000');
    const kept = this.matches.get(key);
    if (kept && kept.version === this.membershipVersion) return kept;
    const sift = this.sifter(taxa);
    const ranges = [
      ...unique.map((prefix) => this.termsWithPrefix(prefix)),
      ...exact.map((name) => {
        const term = this.termIdOf.get(name);
        return term === undefined ? [] : [term];
      }),
    ];
    // Nothing to match but facts to sift: every published slot (a sort's order holds each once, as a typed array).
    let matched = ranges.length === 0 && sift ? { slots: this.ordered('newest').perm, generation: -1 } : this.matchTerms(ranges);
    if (sift) {
      // No posting list holds "not featured" or a range of facts: the matches are sifted (their stamps are then
      // set again when a page is read).
      matched = { slots: matched.slots.filter(sift), generation: -1 };
    }
    const match = { version: this.membershipVersion, ...matched };
    this.matches.set(key, match);
    return match;
  }

  /** A test of a slot for what no posting list holds (not featured, the facts' bounds), or null when there is none. */
  private sifter(taxa: TaxonFilter): ((slot: number) => boolean) | null {
    const { featured, duration, height, uploadUs } = this;
    const tests: ((slot: number) => boolean)[] = [];
    if (taxa.featured === false) tests.push((slot) => featured[slot] === 0);
    const { minDuration, maxDuration, minHeight, uploadedSince } = taxa;
    // An unknown duration (NO_DURATION) or height (0) is below every bound and matches none.
    if (minDuration !== undefined) tests.push((slot) => duration[slot] >= minDuration);
    if (maxDuration !== undefined) tests.push((slot) => duration[slot] >= 0 && duration[slot] <= maxDuration);
    if (minHeight !== undefined) tests.push((slot) => height[slot] > 0 && height[slot] >= minHeight);
    if (uploadedSince !== undefined) {
      const sinceUs = uploadedSince * 1000;
      tests.push((slot) => uploadUs[slot] >= sinceUs);
    }
    if (taxa.exclude) {
      // The slots of the excluded taxa's posting lists, marked once for this query (a byte a slot: a third of
      // the catalogue excluded is marked and tested in a few milliseconds at 100,000, where a Set took tens).
      const excluded = new Uint8Array(this.capacity);
      let any = false;
      const { categories, performers, tags } = taxa.exclude;
      for (const name of [...categories.map(categoryTerm), ...performers.map(performerTerm), ...tags.map(tagTerm)]) {
        const term = this.termIdOf.get(name);
        if (term === undefined) continue;
        const list = this.postings[term];
        for (let i = 0; i < this.postingLength[term]; i++) excluded[list[i]] = 1;
        any ||= this.postingLength[term] > 0;
      }
      // Nothing to leave out (ids no video has) still makes a filter: the whole catalogue, not nothing.
      tests.push(any ? (slot) => excluded[slot] === 0 : () => true);
    }
    if (tests.length === 0) return null;
    return tests.length === 1 ? tests[0] : (slot) => tests.every((test) => test(slot));
  }

  /** The slots having, for each range, at least one of its terms. */
  private matchTerms(ranges: number[][]): { slots: Int32Array; generation: number } {
    let slots = new Int32Array(0);
    if (ranges.length > 0 && ranges.every((terms) => terms.length > 0)) {
      // The smallest prefix marks first; each next one keeps the marked slots it also has.
      const size = (terms: number[]) => terms.reduce((sum, term) => sum + this.postingLength[term], 0);
      ranges.sort((a, b) => size(a) - size(b));
      let previous = 0;
      let found = 0;
      const stamp = this.stamp;
      const buffer = this.matchBuffer.length >= this.capacity ? this.matchBuffer : (this.matchBuffer = new Int32Array(this.capacity));
      for (let r = 0; r < ranges.length; r++) {
        const generation = this.nextGeneration();
        const first = r === 0;
        found = 0;
        for (const term of ranges[r]) {
          const list = this.postings[term];
          const length = this.postingLength[term];
          for (let i = 0; i < length; i++) {
            const slot = list[i];
            const mark = stamp[slot];
            if (mark === generation || (!first && mark !== previous)) continue;
            stamp[slot] = generation;
            buffer[found++] = slot;
          }
        }
        previous = generation;
      }
      slots = buffer.slice(0, found);
    } else {
      this.nextGeneration();
    }
    return { slots, generation: this.generation };
  }

  /** Term ids of every lexeme starting with `prefix`. */
  private termsWithPrefix(prefix: string): number[] {
    this.sortTerms();
    let lo = 0;
    let hi = this.sortedTerms.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sortedTerms[mid].name < prefix) lo = mid + 1;
      else hi = mid;
    }
    const terms: number[] = [];
    for (let i = lo; i < this.sortedTerms.length && this.sortedTerms[i].name.startsWith(prefix); i++) {
      if (this.postingLength[this.sortedTerms[i].id] > 0) terms.push(this.sortedTerms[i].id);
    }
    return terms;
  }

  private sortTerms(): void {
    if (this.termsSorted) return;
    this.sortedTerms = this.termNames.map((name, id) => ({ name, id }));
    this.sortedTerms.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.termsSorted = true;
  }

  private nextGeneration(): number {
    if (this.generation >= 0xfffffffe) {
      this.stamp.fill(0);
      this.generation = 0;
      this.matches.clear();
    }
    return ++this.generation;
  }

  /** One page of the matches in the sort's order: walks the sort's order when the matches are dense, else sorts the matches' ranks. */
  private pageOf(matched: { slots: Int32Array; generation: number }, sort: VideoSort, offset: number, count: number): number[] {
    const { perm, rank } = this.ordered(sort);
    const total = matched.slots.length;
    const live = perm.length;
    const fromEnd = offset + count / 2 > total / 2;
    const reach = fromEnd ? total - offset : offset + count;
    // A walk passes about reach × live / total slots; sorting the ranks costs about total × log2(total).
    if ((reach * live) / total <= total * Math.log2(total + 1)) {
      const generation = this.marked(matched);
      const page: number[] = [];
      let seen = 0;
      if (!fromEnd) {
        for (let i = 0; i < live && page.length < count; i++) {
          if (this.stamp[perm[i]] !== generation) continue;
          if (seen++ >= offset) page.push(this.ids[perm[i]]);
        }
        return page;
      }
      const skip = total - offset - count;
      for (let i = live - 1; i >= 0 && page.length < count; i--) {
        if (this.stamp[perm[i]] !== generation) continue;
        if (seen++ >= skip) page.push(this.ids[perm[i]]);
      }
      return page.reverse();
    }
    const ranks = new Int32Array(total);
    for (let i = 0; i < total; i++) ranks[i] = rank[matched.slots[i]];
    ranks.sort();
    const page: number[] = [];
    for (let i = offset; i < offset + count; i++) page.push(this.ids[perm[ranks[i]]]);
    return page;
  }

  /** The generation whose stamps mark exactly these matches (marked again if another query came since). */
  private marked(matched: { slots: Int32Array; generation: number }): number {
    if (matched.generation === this.generation) return matched.generation;
    const generation = this.nextGeneration();
    for (const slot of matched.slots) this.stamp[slot] = generation;
    matched.generation = generation;
    return generation;
  }

  // --- sort orders ---------------------------------------------------------------------------------------------

  private markDirty(sort: VideoSort, slot: number): void {
    const order = this.order.get(sort)!;
    if (!order.all) order.dirty.add(slot);
  }

  /** Negative when slot a comes first in the sort (all keys descending, then id descending). */
  private compare(sort: VideoSort): (a: number, b: number) => number {
    const { ids, uploadUs, views, likes, duration, trending } = this;
    switch (sort) {
      case 'newest':
        return (a, b) => uploadUs[b] - uploadUs[a] || ids[b] - ids[a];
      case 'most-viewed':
        return (a, b) => views[b] - views[a] || ids[b] - ids[a];
      case 'top-rated':
        return (a, b) => likes[b] - likes[a] || views[b] - views[a] || ids[b] - ids[a];
      case 'longest':
        return (a, b) => duration[b] - duration[a] || ids[b] - ids[a];
      case 'trending':
        return (a, b) => trending[b] - trending[a] || ids[b] - ids[a];
    }
  }

  /** The sort's order, with the changed slots moved to their places first. */
  private ordered(sort: VideoSort): { perm: Int32Array; rank: Int32Array } {
    const order = this.order.get(sort)!;
    const compare = this.compare(sort);
    if (order.all || order.dirty.size > order.perm.length * FULL_SORT_SHARE) {
      const live = Int32Array.from(this.slotOf.values());
      live.sort(compare);
      order.perm = live;
      order.rank = new Int32Array(this.capacity);
      for (let i = 0; i < live.length; i++) order.rank[live[i]] = i;
      order.dirty.clear();
      order.all = false;
      return order;
    }
    if (order.dirty.size === 0) {
      if (order.rank.length < this.capacity) order.rank = grow(order.rank, this.capacity);
      return order;
    }
    const moved = Int32Array.from([...order.dirty].filter((slot) => this.ids[slot] !== 0 && this.slotOf.get(this.ids[slot]) === slot));
    moved.sort(compare);
    const perm = new Int32Array(this.slotOf.size);
    let out = 0;
    let m = 0;
    let firstChange = -1;
    for (let i = 0; i < order.perm.length; i++) {
      const slot = order.perm[i];
      if (order.dirty.has(slot)) continue;
      while (m < moved.length && compare(moved[m], slot) < 0) {
        if (firstChange < 0) firstChange = out;
        perm[out++] = moved[m++];
      }
      if (firstChange < 0 && out !== i) firstChange = out;
      perm[out++] = slot;
    }
    while (m < moved.length) {
      if (firstChange < 0) firstChange = out;
      perm[out++] = moved[m++];
    }
    order.perm = perm;
    if (order.rank.length < this.capacity) order.rank = grow(order.rank, this.capacity);
    for (let i = Math.max(0, firstChange); i < perm.length; i++) order.rank[perm[i]] = i;
    order.dirty.clear();
    return order;
  }

  // --- storage -------------------------------------------------------------------------------------------------

  private setTerms(slot: number, names: readonly string[]): void {
    const terms = [...new Set(names)].map((name) => this.termId(name)).sort((a, b) => a - b);
    const start = this.termStart[slot];
    const count = this.termCount[slot];
    if (count === terms.length && terms.every((term, i) => this.pool[start + i] === term)) return;
    for (let i = 0; i < count; i++) this.removePosting(this.pool[start + i], slot);
    this.poolGarbage += count;
    if (this.poolUsed + terms.length > this.pool.length) this.compactPool(terms.length);
    this.termStart[slot] = this.poolUsed;
    this.termCount[slot] = terms.length;
    for (const term of terms) {
      this.pool[this.poolUsed++] = term;
      this.addPosting(term, slot);
    }
    this.membershipVersion++;
  }

  private termId(name: string): number {
    let id = this.termIdOf.get(name);
    if (id === undefined) {
      id = this.termNames.length;
      this.termIdOf.set(name, id);
      this.termNames.push(name);
      this.postings.push(new Int32Array(4));
      this.postingLength.push(0);
      this.termsSorted = false;
    }
    return id;
  }

  private addPosting(term: number, slot: number): void {
    let list = this.postings[term];
    const length = this.postingLength[term];
    if (length === list.length) list = this.postings[term] = grow(list, length * 2);
    list[length] = slot;
    this.postingLength[term] = length + 1;
  }

  private removePosting(term: number, slot: number): void {
    const list = this.postings[term];
    const length = this.postingLength[term];
    const at = list.subarray(0, length).indexOf(slot);
    if (at < 0) return;
    list[at] = list[length - 1];
    this.postingLength[term] = length - 1;
  }

  /** Makes room for `extra` more term ids: copies the slots' current lists (not the replaced ones) to a pool twice their size. */
  private compactPool(extra: number): void {
    let live = 0;
    for (const slot of this.slotOf.values()) live += this.termCount[slot];
    const pool = new Int32Array(Math.max(1024, (live + extra) * 2));
    let used = 0;
    for (const slot of this.slotOf.values()) {
      const start = this.termStart[slot];
      const count = this.termCount[slot];
      pool.set(this.pool.subarray(start, start + count), used);
      this.termStart[slot] = used;
      used += count;
    }
    this.pool = pool;
    this.poolUsed = used;
    this.poolGarbage = 0;
  }

  private ensureCapacity(slots: number): void {
    if (slots <= this.capacity) return;
    const capacity = Math.max(1024, this.capacity * 2, slots);
    this.ids = grow(this.ids, capacity);
    this.uploadUs = grow(this.uploadUs, capacity);
    this.views = grow(this.views, capacity);
    this.likes = grow(this.likes, capacity);
    this.duration = grow(this.duration, capacity);
    this.trending = grow(this.trending, capacity);
    this.featured = grow(this.featured, capacity);
    this.height = grow(this.height, capacity);
    this.stamp = grow(this.stamp, capacity);
    this.termStart = grow(this.termStart, capacity);
    this.termCount = grow(this.termCount, capacity);
    this.capacity = capacity;
  }
}

function grow<T extends Int32Array | Uint32Array | Uint16Array | Uint8Array | Float64Array>(array: T, length: number): T {
  const next = new (array.constructor as new (length: number) => T)(length);
  next.set(array.subarray(0, Math.min(array.length, length)) as never);
  return next;
}
