import type { Readable } from 'node:stream';
import { type ByteRange, checkPrefix, type MediaStore, type ObjectRead, type StoredObject, type WriteOptions } from './media-store';

export type StoreDriver = MediaStore['driver'];

/**
 * The video a key belongs to, by its folder: `videos/2024/06/a/240p_001.ts` and `thumbs/2024/06/a/poster.jpg`
 * are the video `2024/06/a`'s (a video's objects are plain files of its two folders). Null for the sources,
 * which belong to no video folder, and for a top folder itself.
 */
export function stemOfKey(key: string): string | null {
  const slash = key.indexOf('/');
  const top = key.slice(0, slash);
  if (top !== 'videos' && top !== 'thumbs') return null;
  return key.slice(slash + 1, key.lastIndexOf('/')) || null;
}

/**
 * The media store while a site has media in two stores (issue #32, point 5: `npm run media:migrate`): new media is
 * written to `primary` (MEDIA_STORE); each video's objects are read and written where its placement says
 * (`media_placements`, kept current by MediaPlacements), the primary when it has none. A video is placed in the
 * other store only once every object of it is there and verified, so a reader sees a whole video in one store.
 * Sources belong to no video: they are read from the primary, else from the other store, and written to the
 * primary. With no other store (no bucket set with MEDIA_STORE=disk), this is the primary alone.
 */
export class PlacedMediaStore implements MediaStore {
  private placements = new Map<string, StoreDriver>();

  constructor(
    readonly primary: MediaStore,
    readonly other: MediaStore | null,
  ) {}

  get driver(): StoreDriver {
    return this.primary.driver;
  }

  /** The store of each driver this process can reach. */
  storeFor(driver: StoreDriver): MediaStore | null {
    if (driver === this.primary.driver) return this.primary;
    return this.other?.driver === driver ? this.other : null;
  }

  /** Every placement, replaced (read from the database at start, and again after missed announcements). */
  replacePlacements(placements: Iterable<[string, StoreDriver]>): void {
    this.placements = new Map(placements);
  }

  /** The videos `stems` are now in `driver`'s store. */
  place(stems: readonly string[], driver: StoreDriver): void {
    for (const stem of stems) this.placements.set(stem, driver);
  }

  /** Where the video `stem` is: its placement, else the primary. */
  placementOf(stem: string): StoreDriver {
    return this.placements.get(stem) ?? this.primary.driver;
  }

  /**
   * The store a video's key is read and written in: its placement's, when this process can reach it (a process
   * without the bucket's settings cannot, and keeps to its own store: docs/operating.md says every process needs
   * both while media moves). Sources and other keys: the primary.
   */
  storeOf(key: string): MediaStore {
    const stem = stemOfKey(key);
    if (stem === null) return this.primary;
    return this.storeFor(this.placementOf(stem)) ?? this.primary;
  }

  /** The store that has `key`: the video's own store, or for a source the primary, else the other one that has it. */
  async locate(key: string): Promise<MediaStore> {
    const store = this.storeOf(key);
    if (!this.other || stemOfKey(key) !== null || (await store.stat(key))) return store;
    return (await this.other.stat(key)) ? this.other : store;
  }

  async stat(key: string): Promise<StoredObject | null> {
    return (await this.locate(key)).stat(key);
  }

  async read(key: string, range?: ByteRange): Promise<ObjectRead> {
    return (await this.locate(key)).read(key, range);
  }

  async readBytes(key: string): Promise<Buffer> {
    return (await this.locate(key)).readBytes(key);
  }

  write(key: string, body: Buffer | string | Readable, options?: WriteOptions): Promise<void> {
    return this.storeOf(key).write(key, body, options);
  }

  writeFile(key: string, file: string, options?: WriteOptions): Promise<void> {
    return this.storeOf(key).writeFile(key, file, options);
  }

  async download(key: string, file: string): Promise<void> {
    return (await this.locate(key)).download(key, file);
  }

  /**
   * A video folder's objects from its store; a wider prefix (`videos/`) lists both stores, each object from the
   * store its video is placed in (copies left behind by a move are not listed), merged in key order.
   */
  async *list(prefix: string): AsyncIterable<StoredObject> {
    const stem = stemOfKey(`${prefix}x`);
    if (!this.other || (stem !== null && prefix.endsWith('/'))) {
      yield* this.storeOf(`${prefix}x`).list(prefix);
      return;
    }
    // Sources and other keys of no video are the primary's (storeOf).
    const mine = (store: MediaStore) => (object: StoredObject) => this.storeOf(object.key) === store;
    yield* mergeSorted(filtered(this.primary.list(prefix), mine(this.primary)), filtered(this.other.list(prefix), mine(this.other)));
  }

  /** Removes the object from its video's store (a source: from both). */
  async remove(key: string): Promise<void> {
    if (stemOfKey(key) !== null || !this.other) return this.storeOf(key).remove(key);
    await Promise.all([this.primary.remove(key), this.other.remove(key)]);
  }

  /**
   * Removes a folder from its video's store and, when it can, from the other one too (what a move left there):
   * a removed video leaves nothing behind. The other store out of reach does not stop the removal; what it
   * keeps, `media:migrate` removes later (its leftovers pass).
   */
  async removeFolder(prefix: string): Promise<number> {
    checkPrefix(prefix);
    const store = this.storeOf(`${prefix}x`);
    const removed = await store.removeFolder(prefix);
    const other = store === this.primary ? this.other : this.primary;
    if (!other) return removed;
    return removed + (await other.removeFolder(prefix).catch(() => 0));
  }

  publishFolder(folder: string, prefix: string): Promise<void> {
    return this.storeOf(`${checkPrefix(prefix)}x`).publishFolder(folder, prefix);
  }
}

async function* filtered<T>(items: AsyncIterable<T>, keep: (item: T) => boolean): AsyncGenerator<T> {
  for await (const item of items) if (keep(item)) yield item;
}

/** Two key-ordered listings as one. */
async function* mergeSorted(a: AsyncIterable<StoredObject>, b: AsyncIterable<StoredObject>): AsyncGenerator<StoredObject> {
  const left = a[Symbol.asyncIterator]();
  const right = b[Symbol.asyncIterator]();
  let l = await left.next();
  let r = await right.next();
  while (!l.done || !r.done) {
    if (r.done || (!l.done && l.value.key <= r.value.key)) {
      yield l.value as StoredObject;
      l = await left.next();
    } else {
      yield r.value;
      r = await right.next();
    }
  }
}
