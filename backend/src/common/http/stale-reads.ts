import { CallHandler, ExecutionContext, Global, Injectable, Module, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { LRUCache } from 'lru-cache';
import { Observable, catchError, of, tap, throwError } from 'rxjs';
import { InvalidationBus } from '../cache/invalidation-bus';
import { isDependencyDown } from '../errors/dependency-errors';
import { isMemberAnswer } from './per-member';

/** The bytes of last good answers kept for outages, all routes together. */
export const STALE_READS_MAX_BYTES = 32 * 1024 * 1024;
/** Answers larger than this are not kept (one listing page of 60 cards is about 30 kB). */
export const STALE_READ_MAX_ENTRY_BYTES = 256 * 1024;
/** How old a kept answer may be and still be served during an outage. */
export const STALE_READ_MAX_AGE_MS = 24 * 60 * 60_000;
export const STALE_HEADER = 'X-Stale';
/**
 * A kept answer is replaced at most this often: measuring a body (serialising it) on every hot read cost more
 * than the read. An outage then serves an answer at most this much older than the last one given.
 */
export const STALE_READ_REFRESH_MS = 2000;

interface StaleEntry {
  /** The answer as JSON text: what it weighs is what it is measured at (the answer's objects weigh several times that, and are shared with the caches that built them). */
  text: string;
  at: number;
}

/** What the API answers from a kept answer. */
export interface StaleAnswer {
  body: unknown;
  at: number;
}

/**
 * The last good answer of each public catalogue read, by URL, in a byte-bounded LRU: what the API answers when
 * the database is down and the read has been answered before. Stale is better than nothing for a visitor; the
 * answer says so (`X-Stale: database-unavailable`, `Age`) and is not to be cached by anyone. Every process drops
 * them all when a video or a taxon changes anywhere, so that an outage never brings back an edited or deleted
 * video (a flush's counts are left: stale counts are what stale means).
 */
@Injectable()
export class StaleReadsStore {
  private readonly entries = new LRUCache<string, StaleEntry>({
    maxSize: STALE_READS_MAX_BYTES,
    maxEntrySize: STALE_READ_MAX_ENTRY_BYTES,
    sizeCalculation: (entry, key) => 2 * (key.length + entry.text.length) + 64,
    ttl: STALE_READ_MAX_AGE_MS,
  });

  constructor(bus: InvalidationBus) {
    const clear = () => this.entries.clear();
    bus.declareCache('outage answers (last good answers)', {
      VideoChanged: clear,
      TaxaChanged: clear,
      // A member's own answers (`@PerMember()` routes) were kept under their key.
      HiddenTopicsChanged: clear,
      // Not when the bus itself missed changes (Redis down): an outage of both is when they are needed.
      CachesCleared: ({ reason }) => reason === 'asked' && clear(),
    });
  }

  remember(key: string, body: unknown): void {
    const kept = this.entries.get(key, { updateAgeOnGet: false });
    if (kept && Date.now() - kept.at < STALE_READ_REFRESH_MS) return;
    let text: string | undefined;
    try {
      text = JSON.stringify(body);
    } catch {
      // A body that cannot be serialised is simply not kept.
    }
    if (text !== undefined) this.entries.set(key, { text, at: Date.now() });
  }

  recall(key: string): StaleAnswer | undefined {
    const kept = this.entries.get(key);
    return kept && { body: JSON.parse(kept.text) as unknown, at: kept.at };
  }

  /** How many answers are kept, and what they weigh as counted against STALE_READS_MAX_BYTES. */
  get sizes(): { answers: number; bytes: number } {
    return { answers: this.entries.size, bytes: this.entries.calculatedSize };
  }
}

/**
 * Keeps the last good answer of the GET it is put on and serves it when the database or Redis is down; put it
 * only on public reads whose answer does not depend on who asks.
 */
@Injectable()
export class StaleReadsInterceptor implements NestInterceptor {
  constructor(
    private readonly store: StaleReadsStore,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request & { user?: { id: string } }>();
    if (req.method !== 'GET') return next.handle();
    // A member's answer of a `@PerMember()` route is theirs alone: kept and served under their own key.
    const key = isMemberAnswer(this.reflector, context) ? `${req.originalUrl}\u0000${req.user?.id}` : req.originalUrl;
    return next.handle().pipe(
      tap((body) => this.store.remember(key, body)),
      catchError((error: unknown) => {
        const kept = isDependencyDown(error) ? this.store.recall(key) : undefined;
        if (!kept) return throwError(() => error);
        const res = context.switchToHttp().getResponse<Response>();
        res.setHeader(STALE_HEADER, 'database-unavailable');
        res.setHeader('Age', String(Math.floor((Date.now() - kept.at) / 1000)));
        res.setHeader('Cache-Control', 'no-store');
        return of(kept.body);
      }),
    );
  }
}

@Global()
@Module({ providers: [StaleReadsStore, StaleReadsInterceptor], exports: [StaleReadsStore, StaleReadsInterceptor] })
export class StaleReadsModule {}
