import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DiskMediaStore } from './disk-media-store';
import type { MediaStore } from './media-store';
import { PlacedMediaStore, stemOfKey } from './placed-media-store';

/**
 * The routing of PlacedMediaStore, on two real disk stores in folders of their own, the second one answering as
 * the `s3` driver (the bucket itself: test/media-migrate.e2e-spec.ts, on Ceph RGW).
 */
describe('PlacedMediaStore', () => {
  let dir: string;
  let disk: DiskMediaStore;
  let bucket: MediaStore;
  let store: PlacedMediaStore;

  const keys = async (s: MediaStore, prefix: string) => {
    const found: string[] = [];
    for await (const o of s.list(prefix)) found.push(o.key);
    return found;
  };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'placed-store-'));
    disk = new DiskMediaStore(path.join(dir, 'disk'));
    bucket = Object.defineProperty(new DiskMediaStore(path.join(dir, 'bucket')), 'driver', { value: 's3' }) as unknown as MediaStore;
    store = new PlacedMediaStore(disk, bucket);
    for (const key of ['videos/2024/a/index.m3u8', 'videos/2024/b/index.m3u8', 'thumbs/2024/a/poster.jpg', 'sources/2024/a.mp4']) await disk.write(key, `disk ${key}`);
    for (const key of ['videos/2024/a/index.m3u8', 'videos/2024/c/index.m3u8', 'thumbs/2024/a/poster.jpg', 'sources/2024/c.mp4']) await bucket.write(key, `bucket ${key}`);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('tells the video of a key by its folder, and none for the sources', () => {
    expect(stemOfKey('videos/2024/06/a/240p_001.ts')).toBe('2024/06/a');
    expect(stemOfKey('thumbs/a/poster.jpg')).toBe('a');
    expect(stemOfKey('sources/2024/a.mp4')).toBeNull();
    expect(stemOfKey('videos/index.m3u8')).toBeNull();
    expect(stemOfKey('other/a/b')).toBeNull();
  });

  it('reads and writes each video where it is placed, the primary when it is not', async () => {
    expect((await store.readBytes('videos/2024/a/index.m3u8')).toString()).toBe('disk videos/2024/a/index.m3u8');
    store.place(['2024/a'], 's3');
    expect(store.placementOf('2024/a')).toBe('s3');
    expect((await store.readBytes('videos/2024/a/index.m3u8')).toString()).toBe('bucket videos/2024/a/index.m3u8');
    expect((await store.readBytes('thumbs/2024/a/poster.jpg')).toString()).toBe('bucket thumbs/2024/a/poster.jpg');
    await store.write('videos/2024/a/240p.m3u8', 'new');
    expect(await bucket.stat('videos/2024/a/240p.m3u8')).not.toBeNull();
    expect(await disk.stat('videos/2024/a/240p.m3u8')).toBeNull();
    // A video placed nowhere is the primary's, even when the other store has a folder of that name.
    expect(await store.stat('videos/2024/c/index.m3u8')).toBeNull();
    store.replacePlacements([]);
    expect((await store.readBytes('videos/2024/a/index.m3u8')).toString()).toBe('disk videos/2024/a/index.m3u8');
  });

  it('reads a source from the primary, else from the other store, and writes it to the primary', async () => {
    expect((await store.readBytes('sources/2024/a.mp4')).toString()).toBe('disk sources/2024/a.mp4');
    expect((await store.readBytes('sources/2024/c.mp4')).toString()).toBe('bucket sources/2024/c.mp4');
    expect((await store.locate('sources/2024/c.mp4')).driver).toBe('s3');
    await store.write('sources/2024/d.mp4', 'new');
    expect(await disk.stat('sources/2024/d.mp4')).not.toBeNull();
    await store.remove('sources/2024/c.mp4');
    expect(await bucket.stat('sources/2024/c.mp4')).toBeNull();
  });

  it('lists a whole top folder from both stores, each video from its own, in key order', async () => {
    expect(await keys(store, 'videos/')).toEqual(['videos/2024/a/index.m3u8', 'videos/2024/b/index.m3u8']);
    store.place(['2024/a', '2024/c'], 's3');
    expect(await keys(store, 'videos/')).toEqual(['videos/2024/a/index.m3u8', 'videos/2024/b/index.m3u8', 'videos/2024/c/index.m3u8']);
    expect((await store.readBytes('videos/2024/a/index.m3u8')).toString()).toBe('bucket videos/2024/a/index.m3u8');
    expect(await keys(store, 'thumbs/2024/a/')).toEqual(['thumbs/2024/a/poster.jpg']);
    expect(await keys(store, 'sources/')).toEqual(['sources/2024/a.mp4']);
  });

  it('removes a video folder from both stores (a move leaves no copy behind a deleted video)', async () => {
    store.place(['2024/a'], 's3');
    expect(await store.removeFolder('videos/2024/a/')).toBe(2);
    expect(await disk.stat('videos/2024/a/index.m3u8')).toBeNull();
    expect(await bucket.stat('videos/2024/a/index.m3u8')).toBeNull();
  });

  it('is the primary alone without another store', async () => {
    const alone = new PlacedMediaStore(disk, null);
    alone.place(['2024/a'], 's3');
    expect(alone.storeOf('videos/2024/a/index.m3u8')).toBe(disk);
    expect(alone.storeFor('s3')).toBeNull();
    expect(await keys(alone, 'videos/')).toEqual(['videos/2024/a/index.m3u8', 'videos/2024/b/index.m3u8']);
  });
});
