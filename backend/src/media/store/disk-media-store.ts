import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type ByteRange,
  checkKey,
  checkPrefix,
  type MediaStore,
  ObjectNotFoundError,
  type ObjectRead,
  OutsideStoreError,
  RangeNotSatisfiableError,
  type StoredObject,
} from './media-store';

/**
 * The `disk` driver: each key is the file of that path under MEDIA_DIR (today's layout). Keys are resolved
 * inside the root, symlinks included, or refused; files are written to a temporary name beside their place and
 * renamed over it, so readers see old or new; a folder is published by renames (readers see the old folder or
 * the new one, never a mix).
 */
export class DiskMediaStore implements MediaStore {
  readonly driver = 'disk';

  constructor(readonly root: string) {}

  /** The file of `key`, inside the root (OutsideStoreError otherwise). */
  fileOf(key: string): Promise<string> {
    return resolveInside(this.root, checkKey(key));
  }

  async stat(key: string): Promise<StoredObject | null> {
    const file = await this.fileOf(key);
    const stats = await fs.stat(file).catch(() => null);
    return stats?.isFile() ? storedObject(key, stats) : null;
  }

  async read(key: string, range?: ByteRange): Promise<ObjectRead> {
    const file = await this.fileOf(key);
    const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      throw notFoundOr(error, key);
    });
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new ObjectNotFoundError(key);
      const sent = clampRange(range, stats.size);
      // The stream owns the handle from here: it closes it at its end or when destroyed.
      const body = createReadStream('', { fd: handle, start: sent.start, end: sent.end, autoClose: true });
      return { ...storedObject(key, stats), body, range: sent };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async readBytes(key: string): Promise<Buffer> {
    const file = await this.fileOf(key);
    return fs.readFile(file).catch((error: NodeJS.ErrnoException) => {
      throw notFoundOr(error, key);
    });
  }

  async write(key: string, body: Buffer | string | Readable): Promise<void> {
    const target = await this.fileOf(key);
    await writeAtomic(target, (temporary) =>
      typeof body === 'string' || Buffer.isBuffer(body) ? fs.writeFile(temporary, body, { flag: 'wx' }) : pipeline(body, createWriteStream(temporary, { flags: 'wx' })),
    );
  }

  async writeFile(key: string, file: string): Promise<void> {
    const target = await this.fileOf(key);
    await writeAtomic(target, (temporary) => fs.copyFile(file, temporary));
  }

  async download(key: string, file: string): Promise<void> {
    const source = await this.fileOf(key);
    await writeAtomic(file, (temporary) =>
      fs.copyFile(source, temporary).catch((error: NodeJS.ErrnoException) => {
        throw notFoundOr(error, key);
      }),
    );
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    // The folder the prefix names, or whose names it starts.
    const folderKey = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const folder = folderKey ? await this.fileOf(folderKey) : this.root;
    const found: StoredObject[] = [];
    const walk = async (dir: string, relative: string): Promise<void> => {
      const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        // Dot-names are the store's temporary files and folders, never keys (checkKey).
        if (entry.name.startsWith('.')) continue;
        const key = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) await walk(path.join(dir, entry.name), key);
        } else if (entry.isFile() && key.startsWith(prefix)) {
          const stats = await fs.stat(path.join(dir, entry.name)).catch(() => null);
          if (stats) found.push(storedObject(key, stats));
        }
      }
    };
    await walk(folder, folderKey);
    found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    yield* found;
  }

  async remove(key: string): Promise<void> {
    const file = await this.fileOf(key);
    const stats = await fs.lstat(file).catch(() => null);
    if (stats && !stats.isDirectory()) await fs.rm(file, { force: true });
  }

  async removeFolder(prefix: string): Promise<number> {
    const folder = await this.fileOf(checkPrefix(prefix).slice(0, -1));
    let count = 0;
    for await (const _ of this.list(prefix)) count++;
    await fs.rm(folder, { recursive: true, force: true });
    return count;
  }

  async publishFolder(folder: string, prefix: string): Promise<void> {
    const target = await this.fileOf(checkPrefix(prefix).slice(0, -1));
    // The folder beside the target first (moved when it is on the same file system, copied from another one),
    // then renames: the old folder aside, the new one in, the old one removed. Readers see one or the other.
    const ready = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.incoming`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.rename(folder, ready).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV') throw error;
        await fs.cp(folder, ready, { recursive: true, errorOnExist: true, force: false });
      });
      const old = `${ready}.old`;
      const hadOld = await fs.rename(target, old).then(() => true, () => false);
      await fs.rename(ready, target);
      if (hadOld) await fs.rm(old, { recursive: true, force: true });
    } finally {
      await fs.rm(ready, { recursive: true, force: true });
    }
  }
}

/**
 * The absolute path of `relative` inside `root`, or OutsideStoreError: no absolute paths, no `..` segments,
 * no NUL, and no symlink on the way that leads out of the root.
 */
export async function resolveInside(root: string, relative: string): Promise<string> {
  const clean = relative.replace(/^\/+/, '');
  if (!clean || clean.includes('\0') || path.isAbsolute(clean) || clean.split(/[\\/]+/).some((s) => s === '..' || s === '.')) {
    throw new OutsideStoreError();
  }
  const target = path.resolve(root, clean);
  if (!isInside(root, target)) throw new OutsideStoreError();
  // Follow the longest existing ancestor through symlinks: it must still be inside the root.
  const realRoot = await fs.realpath(root).catch(() => path.resolve(root));
  let existing = target;
  while (!(await exists(existing)) && existing !== root) existing = path.dirname(existing);
  const realExisting = await fs.realpath(existing).catch(() => existing);
  if (!isInside(realRoot, realExisting) && realExisting !== realRoot) throw new OutsideStoreError();
  return target;
}

export function isInside(root: string, target: string): boolean {
  const relative = path.relative(path.resolve(root), path.resolve(target));
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** A file as an object: its version changes whenever it is written again (size, time and inode). */
function storedObject(key: string, stats: Stats): StoredObject {
  return { key, size: stats.size, modifiedAt: stats.mtimeMs, version: `${stats.size}-${stats.mtimeMs}-${stats.ino}` };
}

/** `range` within an object of `size` bytes: the whole object without one; RangeNotSatisfiableError past its end. */
export function clampRange(range: ByteRange | undefined, size: number): ByteRange {
  if (!range) return { start: 0, end: Math.max(0, size - 1) };
  if (range.start >= size) throw new RangeNotSatisfiableError(size);
  return { start: range.start, end: Math.min(range.end, size - 1) };
}

/**
 * Writes a local file through a temporary file beside `target`, renamed over it once whole; nothing is left on
 * failure (the disk store's objects, and the bucket's downloads into a worker's scratch).
 */
export async function writeAtomic(target: string, fill: (temporary: string) => Promise<unknown>): Promise<void> {
  // A dot-name beside the target: never a key, so never listed or served half-written.
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fill(temporary);
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

function notFoundOr(error: NodeJS.ErrnoException, key: string): Error {
  return error.code === 'ENOENT' || error.code === 'EISDIR' || error.code === 'ENOTDIR' ? new ObjectNotFoundError(key) : error;
}
