import { PGlite, types } from '@electric-sql/pglite';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';

type Callback<T> = (err: Error | null, result?: T) => void;

/** A FIFO lock: PGlite is one session, so one TypeORM query runner may use it at a time. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => release);
    this.tail = this.tail.then(() => next);
    return ready;
  }
}

interface PgResult {
  rows: unknown[];
  rowCount: number;
  command?: string;
  fields: { name: string; dataTypeID: number }[];
}

/** Serializes booleans as PostgreSQL literals, as typeorm-pglite does; PGlite's default sends 't'/'f' text. */
const boolSerializer = (value: unknown) => {
  if (value === true || value === 'true' || value === 1) return 'TRUE';
  if (value === false || value === 'false' || value === 0) return 'FALSE';
  return value as string;
};

class PGliteClient extends EventEmitter {
  constructor(private readonly db: PGlite) {
    super();
  }

  async query(sql: string, params?: unknown[] | Callback<PgResult>, cb?: Callback<PgResult>): Promise<PgResult> {
    const callback = typeof params === 'function' ? params : cb;
    const values = Array.isArray(params) ? params : undefined;
    try {
      let result: PgResult;
      if (values && values.length > 0) {
        const r = await this.db.query(sql, values);
        result = { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length, fields: r.fields, command: commandOf(sql) };
      } else {
        // Without parameters a string may hold several statements (migrations); the last one's result counts.
        const all = await this.db.exec(sql);
        const r = all[all.length - 1] ?? { rows: [], fields: [], affectedRows: 0 };
        result = { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length, fields: r.fields, command: commandOf(sql) };
      }
      callback?.(null, result);
      return result;
    } catch (error) {
      callback?.(error as Error);
      throw error;
    }
  }
}

function commandOf(sql: string): string | undefined {
  return /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase();
}

/**
 * A `pg`-compatible pool over one PGlite instance, for TypeORM's postgres driver. Unlike typeorm-pglite,
 * which shares one process-wide instance among all clients, each pool owns its instance and hands it to one
 * query runner at a time: a transaction opened by one request cannot swallow another request's queries.
 */
export class PGlitePool extends EventEmitter {
  private readonly db: Promise<PGlite>;
  private readonly lock = new Mutex();

  /** `dataDir` on disk, or in memory; `loadDataDir`: an in-memory database that starts as this dump (tests). */
  constructor(options: { pglite?: { dataDir?: string; loadDataDir?: Blob } } = {}) {
    super();
    if (options.pglite?.dataDir) mkdirSync(options.pglite.dataDir, { recursive: true });
    this.db = PGlite.create({
      dataDir: options.pglite?.dataDir,
      ...(options.pglite?.loadDataDir ? { loadDataDir: options.pglite.loadDataDir } : {}),
      serializers: { [types.BOOL]: boolSerializer },
    });
  }

  connect(callback: (err: Error | null, client?: PGliteClient, release?: () => void) => void): void {
    void Promise.all([this.db, this.lock.acquire()]).then(
      ([db, unlock]) => {
        let released = false;
        callback(null, new PGliteClient(db), () => {
          if (!released) {
            released = true;
            unlock();
          }
        });
      },
      (error: Error) => callback(error),
    );
  }

  /**
   * Runs `fn` on the instance while no query runner holds it, so between transactions (a backup's snapshot of
   * the data folder: nothing half-written by this process is in it).
   */
  async exclusive<T>(fn: (db: PGlite) => Promise<T>): Promise<T> {
    const db = await this.db;
    const unlock = await this.lock.acquire();
    try {
      return await fn(db);
    } finally {
      unlock();
    }
  }

  end(callback?: (err: Error | null) => void): void {
    this.db.then((db) => db.close()).then(
      () => callback?.(null),
      (error: Error) => callback?.(error),
    );
  }
}

/** The object TypeORM's postgres driver takes as `driver` in place of the `pg` module. */
export const pgliteDriver = { Pool: PGlitePool };
