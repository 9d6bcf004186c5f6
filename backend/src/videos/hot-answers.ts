import type { Counter } from 'prom-client';
import { Metrics } from '../common/metrics/metrics';
import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, OnModuleDestroy, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { Observable, tap } from 'rxjs';
import { isPublicCache, PUBLIC_CACHE_CONTROL } from '../common/http/http-caching';
import { hasBody } from '../common/http/request-guards';
import { isMemberAnswer } from '../common/http/per-member';
import { SESSION_COOKIE_PAIR } from '../common/http/session-cookie';
import { STALE_HEADER } from '../common/http/stale-reads';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { brandHostOf } from '../common/http/site-identity';
import { CACHE_MAX_AGE_MS, CatalogueCache, sweepExpired, type CatalogueStamp } from './catalogue-cache';
import { CountersService } from './counters/counters.service';

/** The bytes of hot answers kept, all routes together. */
export const HOT_ANSWERS_MAX_BYTES = 32 * 1024 * 1024;
/** Answers larger than this are not kept (one listing page of 60 cards is about 30 kB). */
export const HOT_ANSWER_MAX_BYTES = 256 * 1024;

/**
 * The cards' counts as an answer shows them, three numbers a card: video id, views, likes. One typed array, not
 * an array of arrays: a kept listing page holds one small object for its counts instead of 60 (the soak's heap
 * snapshots showed the arrays as most of what the kept answers held on the heap).
 */
type ShownCounts = Float64Array;

export interface HotAnswer {
  body: Buffer;
  etag: string;
  stamp: CatalogueStamp;
  counts: ShownCounts;
}

/** What an answer weighs besides its body and counts: the entry, its key, ETag and Buffer objects (measured). */
const ANSWER_OVERHEAD_BYTES = 400;

/**
 * Public catalogue answers kept as the bytes the API sent, by URL, so that a hot read skips routing, guards,
 * validation, serialisation and hashing: the catalogue cache's data, already serialised.
 *
 * An answer is served again only while it is exactly what the full pipeline would answer now: the catalogue
 * cache's versions have not moved since the request that built it started (any catalogue write, counter flush,
 * trending recompute or clear-cache moves them, in this process at once and in the others through the
 * invalidation bus), the rows of its cards are still kept, and every card's views and likes (stored + what the
 * counters buffer) are still the ones in the body. A view counted since is a miss, and the next full answer
 * is kept in its place. Nothing is kept or served while the catalogue cache is not usable (the bus down,
 * CATALOGUE_CACHE=off), nor an answer served stale during an outage.
 */
@Injectable()
export class HotAnswers implements OnModuleDestroy {
  private readonly answers = new LRUCache<string, HotAnswer>({
    maxSize: HOT_ANSWERS_MAX_BYTES,
    maxEntrySize: HOT_ANSWER_MAX_BYTES,
    sizeCalculation: (answer, key) => 2 * key.length + answer.body.length + answer.counts.byteLength + ANSWER_OVERHEAD_BYTES,
    ttl: CACHE_MAX_AGE_MS,
  });

  private readonly stopSweeping = sweepExpired(this.answers);

  constructor(
    private readonly cache: CatalogueCache,
    private readonly counters: CountersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() metrics?: Metrics,
  ) {
    this.served = metrics?.counter('kept_answers_total', 'Catalogue GETs answered from a kept answer (hit) or by the full pipeline (miss)', ['outcome']);
  }

  private readonly served?: Counter<'outcome'>;

  /** Counts a catalogue GET as answered from memory or not (the hit ratio of `/metrics`). */
  count(hit: boolean): void {
    this.served?.inc({ outcome: hit ? 'hit' : 'miss' });
  }

  /** The key of a request's answer: its URL, on the site its host is (docs/decisions.md › "Brands by host"). */
  keyOf(req: Request): string {
    const site = brandHostOf(req, this.config);
    return site ? `${site} ${req.originalUrl}` : req.originalUrl;
  }

  onModuleDestroy(): void {
    this.stopSweeping();
  }

  /** How many answers are kept, and what they weigh as counted against HOT_ANSWERS_MAX_BYTES. */
  get sizes(): { answers: number; bytes: number } {
    return { answers: this.answers.size, bytes: this.answers.calculatedSize };
  }

  /** The versions a request starts from; null when its answer may not be kept. */
  stamp(): CatalogueStamp | null {
    return this.cache.stamp();
  }

  /** Keeps `body`, answered to a request that started at `stamp`, unless something changed meanwhile. */
  keep(key: string, stamp: CatalogueStamp, body: unknown, etagOf: (body: Buffer) => string): void {
    if (!this.cache.isCurrent(stamp)) return;
    const text = JSON.stringify(body);
    if (text === undefined) return;
    const bytes = Buffer.from(text, 'utf8');
    this.answers.set(key, { body: bytes, etag: etagOf(bytes), stamp, counts: shownCounts(body) });
  }

  /**
   * The kept answer for `key` if nothing has changed since it was built; its counts are for `confirm` to check
   * (undefined when there is nothing to check), so that a URL never kept costs no more than a map look-up.
   */
  candidate(key: string): HotAnswer | undefined {
    const answer = this.answers.get(key);
    if (answer && !this.cache.isCurrent(answer.stamp)) {
      this.answers.delete(key);
      return undefined;
    }
    return answer;
  }

  /** Every card's views and likes (stored + what the counters buffer) are still the ones the answer shows. */
  async confirm(answer: HotAnswer): Promise<boolean> {
    const { counts } = answer;
    const ids: number[] = [];
    const stored: { views: number; likes: number }[] = [];
    for (let i = 0; i < counts.length; i += 3) {
      const kept = this.cache.keptCounts(counts[i]);
      if (!kept) return false;
      ids.push(counts[i]);
      stored.push(kept);
    }
    const pending = await this.counters.pending(ids);
    for (const [n, id] of ids.entries()) {
      const p = pending.get(id);
      if (stored[n].views + (p?.views ?? 0) !== counts[3 * n + 1] || stored[n].likes + (p?.likes ?? 0) !== counts[3 * n + 2]) return false;
    }
    // A flush may have moved the counts from the buffer to the rows while the buffer was read.
    return this.cache.isCurrent(answer.stamp);
  }
}

/** The counts shown in a catalogue answer: a video's own, and its `data` cards' (taxa have no counts). */
function shownCounts(body: unknown): ShownCounts {
  const counts: number[] = [];
  const add = (value: unknown) => {
    const card = value as { id?: unknown; views?: unknown; likes?: unknown } | null;
    if (card && typeof card.id === 'number' && typeof card.views === 'number' && typeof card.likes === 'number') {
      counts.push(card.id, card.views, card.likes);
    }
  };
  add(body);
  const data = (body as { data?: unknown } | null)?.data;
  if (Array.isArray(data)) data.forEach(add);
  return Float64Array.from(counts);
}

/**
 * Keeps the answers of `@PublicCache()` GETs (the same for everyone: they depend on nothing but the URL, the
 * settings and the catalogue cache), for `hotAnswersMiddleware` to serve.
 */
@Injectable()
export class HotAnswersInterceptor implements NestInterceptor {
  constructor(
    private readonly answers: HotAnswers,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    // A member's answer of a `@PerMember()` route (their hidden topics left out) is theirs: never kept.
    const stamp = req.method === 'GET' && isPublicCache(this.reflector, context) && !isMemberAnswer(this.reflector, context) ? this.answers.stamp() : null;
    if (!stamp) return next.handle();
    const res = context.switchToHttp().getResponse<Response>();
    const etagOf = req.app.get('etag fn') as (body: Buffer, encoding?: string) => string;
    return next.handle().pipe(
      tap((body) => {
        if (!res.getHeader(STALE_HEADER) && typeof etagOf === 'function') this.answers.keep(this.answers.keyOf(req), stamp, body, (b) => etagOf(b));
      }),
    );
  }
}

/**
 * Serves kept catalogue answers before Nest's routing, with the headers the full pipeline gives them (the ones
 * set by the middleware before this one, a public Cache-Control, the strong ETag, and a 304 when it matches).
 */
/** The catalogue's reads, whose answers may be kept (as nginx's micro-cache has them). */
const CATALOGUE_READS = /^\/api\/(?:videos|categories|performers|tags|site)(?:\/|$)/;
/** The reads a member is answered their own way (`@PerMember()`: listings and related rows leave their hidden topics out). */
const PER_MEMBER_READS = /^\/api\/(?:videos(?:\/\d+\/related)?|cards)\/?$/;
/**
 * A request that names a session (checked later, by the guards): not answered from what guests were. Read from the
 * raw header: this runs before the cookie parser.
 */
const hasCredentials = (req: Request) => Boolean(req.headers.authorization) || SESSION_COOKIE_PAIR.test(req.headers.cookie ?? '');

export function hotAnswersMiddleware(answers: HotAnswers): RequestHandler {
  const send = (req: Request, res: Response, answer: HotAnswer) => {
    res.setHeader('Cache-Control', PUBLIC_CACHE_CONTROL);
    res.setHeader('ETag', answer.etag);
    if (req.fresh) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', answer.body.length);
    res.end(answer.body);
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    const personal = PER_MEMBER_READS.test(req.path) && hasCredentials(req);
    const answer = req.method === 'GET' && !hasBody(req) && !personal ? answers.candidate(answers.keyOf(req)) : undefined;
    const miss = () => {
      if (req.method === 'GET' && CATALOGUE_READS.test(req.path)) answers.count(false);
      next();
    };
    const hit = (kept: HotAnswer) => {
      answers.count(true);
      send(req, res, kept);
    };
    if (!answer) return miss();
    if (answer.counts.length === 0) return hit(answer);
    answers.confirm(answer).then((current) => (current ? hit(answer) : miss()), miss);
  };
}
