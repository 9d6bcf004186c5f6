import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Readable } from 'node:stream';
import { DiskMediaStore } from '../src/media/store/disk-media-store';
import { type MediaStore, ObjectNotFoundError, OutsideStoreError, RangeNotSatisfiableError } from '../src/media/store/media-store';
import { GetBucketLifecycleConfigurationCommand } from '@aws-sdk/client-s3';
import { S3MediaStore } from '../src/media/store/s3-media-store';
import { testS3Store } from './helpers/s3';
import { TcpProxy } from './helpers/tcp-proxy';
import { sha256 } from './helpers/media-files';

/**
 * The media store's port (issue #32, point 1), one suite for both drivers: the disk under a folder of its own,
 * and S3 on a real Ceph RGW (scripts/s3/start-ceph-s3.sh), a bucket of the file's own.
 */
const DRIVERS: Record<'disk' | 's3', () => Promise<{ store: MediaStore; drop: () => Promise<void> }>> = {
  disk: async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'media-store-'));
    return { store: new DiskMediaStore(root), drop: async () => rmSync(root, { recursive: true, force: true }) };
  },
  s3: () => testS3Store(),
};

const bytesOf = async (body: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};
const text = async (body: Readable) => (await bytesOf(body)).toString('utf8');
const keysOf = async (store: MediaStore, prefix: string) => {
  const keys: string[] = [];
  for await (const object of store.list(prefix)) keys.push(object.key);
  return keys;
};

describe.each(['disk', 's3'] as const)('the media store, %s driver', (driver) => {
  let store: MediaStore;
  let drop: () => Promise<void>;
  let scratch: string;

  beforeAll(async () => {
    ({ store, drop } = await DRIVERS[driver]());
    scratch = mkdtempSync(path.join(tmpdir(), 'media-store-scratch-'));
  }, 180_000);
  afterAll(async () => {
    await drop?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('writes an object whole and reads it back, with its size and a version that changes when it is written again', async () => {
    await store.write('videos/abc/index.m3u8', '#EXTM3U\n');
    const first = await store.stat('videos/abc/index.m3u8');
    expect(first).toMatchObject({ key: 'videos/abc/index.m3u8', size: 8 });
    expect((await store.readBytes('videos/abc/index.m3u8')).toString()).toBe('#EXTM3U\n');

    await store.write('videos/abc/index.m3u8', Buffer.from('#EXTM3U\n#EXT-X-VERSION:3\n'));
    const second = await store.stat('videos/abc/index.m3u8');
    expect(second?.size).toBe(25);
    expect(second?.version).not.toBe(first?.version);
    const read = await store.read('videos/abc/index.m3u8');
    expect(read).toMatchObject({ size: 25, range: { start: 0, end: 24 } });
    expect(await text(read.body)).toBe('#EXTM3U\n#EXT-X-VERSION:3\n');
  });

  it('reads byte ranges: inside the object, clamped at its end, refused from past its end', async () => {
    await store.write('thumbs/abc/poster.jpg', Buffer.from('0123456789'));
    const middle = await store.read('thumbs/abc/poster.jpg', { start: 2, end: 5 });
    expect(middle).toMatchObject({ size: 10, range: { start: 2, end: 5 } });
    expect(await text(middle.body)).toBe('2345');
    const tail = await store.read('thumbs/abc/poster.jpg', { start: 7, end: 1_000 });
    expect(tail).toMatchObject({ size: 10, range: { start: 7, end: 9 } });
    expect(await text(tail.body)).toBe('789');
    const refused = await store.read('thumbs/abc/poster.jpg', { start: 10, end: 20 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RangeNotSatisfiableError);
    expect((refused as RangeNotSatisfiableError).size).toBe(10);
  });

  it('answers a missing object as not found, and a missing stat as null', async () => {
    expect(await store.stat('videos/none/index.m3u8')).toBeNull();
    await expect(store.read('videos/none/index.m3u8')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(store.readBytes('videos/none/index.m3u8')).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(store.download('videos/none/index.m3u8', path.join(scratch, 'none'))).rejects.toBeInstanceOf(ObjectNotFoundError);
    await store.remove('videos/none/index.m3u8');
  });

  it.each(['../secrets.json', '/etc/passwd', 'videos//x.ts', 'videos/./x.ts', 'videos/../../x.ts', 'videos\\x.ts', 'videos/x\0.ts', ''])(
    'refuses the key %j as outside the store, writing nothing',
    async (key) => {
      await expect(store.write(key, 'x')).rejects.toBeInstanceOf(OutsideStoreError);
      await expect(store.read(key)).rejects.toBeInstanceOf(OutsideStoreError);
      await expect(store.stat(key)).rejects.toBeInstanceOf(OutsideStoreError);
    },
  );

  it('streams a 20 MiB upload in parts and gives back the same bytes, to a stream and to a file', async () => {
    const bytes = randomBytes(20 * 1024 * 1024);
    // In 64 kB chunks, as an upload arrives.
    const chunks = Array.from({ length: bytes.length / 65_536 }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536));
    await store.write('sources/upload-1.mp4', Readable.from(chunks));
    expect((await store.stat('sources/upload-1.mp4'))?.size).toBe(bytes.length);
    const local = path.join(scratch, 'fetched', 'upload-1.mp4');
    await store.download('sources/upload-1.mp4', local);
    expect(sha256(readFileSync(local))).toBe(sha256(bytes));
    const tail = await store.read('sources/upload-1.mp4', { start: bytes.length - 100, end: bytes.length - 1 });
    expect((await bytesOf(tail.body)).equals(bytes.subarray(bytes.length - 100))).toBe(true);
  }, 120_000);

  it('keeps the old object when a streamed write fails part way, and leaves no new one', async () => {
    await store.write('sources/upload-2.mp4', 'the old bytes');
    let sent = 0;
    const failing = new Readable({
      read() {
        sent += 1;
        if (sent > 200) this.destroy(new Error('the uploader went away'));
        else this.push(randomBytes(65_536));
      },
    });
    await expect(store.write('sources/upload-2.mp4', failing)).rejects.toThrow('the uploader went away');
    expect((await store.readBytes('sources/upload-2.mp4')).toString()).toBe('the old bytes');
    await expect(store.readBytes('sources/upload-3.mp4')).rejects.toBeInstanceOf(ObjectNotFoundError);
    const failingNew = Readable.from((async function* () {
      yield randomBytes(65_536);
      throw new Error('the uploader went away');
    })());
    await expect(store.write('sources/upload-3.mp4', failingNew)).rejects.toThrow('the uploader went away');
    expect(await store.stat('sources/upload-3.mp4')).toBeNull();
  }, 60_000);

  it('lists a folder in key order, and only that folder (not a sibling whose name starts the same)', async () => {
    await Promise.all(['videos/list/b.ts', 'videos/list/a.ts', 'videos/list/sub/c.ts', 'videos/listing/d.ts'].map((key) => store.write(key, key)));
    expect(await keysOf(store, 'videos/list/')).toEqual(['videos/list/a.ts', 'videos/list/b.ts', 'videos/list/sub/c.ts']);
    const [first] = await (async () => {
      const all = [];
      for await (const object of store.list('videos/list/a')) all.push(object);
      return all;
    })();
    expect(first).toMatchObject({ key: 'videos/list/a.ts', size: 16 });
    expect(await store.removeFolder('videos/list/')).toBe(3);
    expect(await keysOf(store, 'videos/list/')).toEqual([]);
    expect(await keysOf(store, 'videos/listing/')).toEqual(['videos/listing/d.ts']);
    await expect(store.removeFolder('videos/listing')).rejects.toBeInstanceOf(OutsideStoreError);
  });

  it("publishes a folder over a video's objects: new ones in, what it no longer has out, other videos untouched", async () => {
    await Promise.all(['videos/pub/index.m3u8', 'videos/pub/720p.m3u8', 'videos/pub/720p_000.ts', 'videos/pub2/index.m3u8'].map((key) => store.write(key, `old ${key}`)));
    const folder = path.join(scratch, 'publish');
    mkdirSync(path.join(folder, 'sprites'), { recursive: true });
    writeFileSync(path.join(folder, 'index.m3u8'), '#EXTM3U\n240p.m3u8\n');
    writeFileSync(path.join(folder, '240p.m3u8'), '#EXTM3U\n240p_000.ts\n');
    writeFileSync(path.join(folder, '240p_000.ts'), randomBytes(1000));
    writeFileSync(path.join(folder, 'sprites', 'sheet-0.jpg'), randomBytes(100));
    await store.publishFolder(folder, 'videos/pub/');
    expect(await keysOf(store, 'videos/pub/')).toEqual(['videos/pub/240p.m3u8', 'videos/pub/240p_000.ts', 'videos/pub/index.m3u8', 'videos/pub/sprites/sheet-0.jpg']);
    expect((await store.readBytes('videos/pub/index.m3u8')).toString()).toBe('#EXTM3U\n240p.m3u8\n');
    expect((await store.stat('videos/pub/240p_000.ts'))?.size).toBe(1000);
    expect((await store.readBytes('videos/pub2/index.m3u8')).toString()).toBe('old videos/pub2/index.m3u8');
  });

  it('writes a local file as an object', async () => {
    const file = path.join(scratch, 'poster.webp');
    writeFileSync(file, randomBytes(3000));
    await store.writeFile('thumbs/file/poster.webp', file);
    expect(sha256(await store.readBytes('thumbs/file/poster.webp'))).toBe(sha256(readFileSync(file)));
  });

  if (driver === 'disk') {
    it('refuses a key that goes out of the store through a symlink', async () => {
      const outside = mkdtempSync(path.join(tmpdir(), 'outside-'));
      const root = (store as DiskMediaStore).root;
      mkdirSync(path.join(root, 'thumbs'), { recursive: true });
      symlinkSync(outside, path.join(root, 'thumbs', 'escape'));
      await expect(store.write('thumbs/escape/poster.jpg', 'x')).rejects.toBeInstanceOf(OutsideStoreError);
      await expect(store.read('thumbs/escape/poster.jpg')).rejects.toBeInstanceOf(OutsideStoreError);
      rmSync(outside, { recursive: true, force: true });
    });
  }
});

describe('the media store, s3 driver, when the connection to the bucket breaks mid-upload', () => {
  let proxy: TcpProxy;
  let store: S3MediaStore;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const bucket = await testS3Store();
    drop = bucket.drop;
    proxy = await TcpProxy.to(bucket.settings.endpoint);
    store = new S3MediaStore({ ...bucket.settings, endpoint: `http://127.0.0.1:${proxy.port}` });
  }, 180_000);
  afterAll(async () => {
    await proxy?.cut();
    store?.client.destroy();
    await drop?.();
  });

  /** A 40 MiB stream that calls `midway` once 12 MiB of it have been read. */
  const upload = (bytes: Buffer, midway: () => void) =>
    Readable.from((async function* () {
      for (let at = 0; at < bytes.length; at += 1024 * 1024) {
        if (at === 12 * 1024 * 1024) midway();
        yield bytes.subarray(at, at + 1024 * 1024);
      }
    })());

  it('resumes a multipart upload whose parts failed while the connection was cut for a moment', async () => {
    const bytes = randomBytes(40 * 1024 * 1024);
    await store.write('sources/resumed.mp4', upload(bytes, () => proxy.blip()));
    // The upload did meet the outage: a new connection was refused while it ran.
    expect(proxy.refusing).toBe(0);
    expect(sha256(await store.readBytes('sources/resumed.mp4'))).toBe(sha256(bytes));
  }, 120_000);

  it('publishes no part of an upload that could not finish, and keeps the object it would have replaced', async () => {
    await store.write('sources/kept.mp4', 'the old bytes');
    const bytes = randomBytes(40 * 1024 * 1024);
    await expect(store.write('sources/kept.mp4', upload(bytes, () => void proxy.cut()))).rejects.toThrow();
    await proxy.restore();
    expect((await store.readBytes('sources/kept.mp4')).toString()).toBe('the old bytes');
  }, 120_000);
});

describe('the media store, s3 driver, in its bucket', () => {
  it('lets anyone read renditions and images (what the edge fetches), never the sources', async () => {
    const { store, settings, drop } = await testS3Store();
    try {
      await store.write('videos/pub/index.m3u8', '#EXTM3U\n');
      await store.write('thumbs/pub/poster.jpg', Buffer.from('jpeg'));
      await store.write('sources/private.mp4', Buffer.from('source'));
      const anonymous = (key: string) => fetch(`${settings.endpoint}/${settings.bucket}/${key}`);
      const playlist = await anonymous('videos/pub/index.m3u8');
      expect(playlist.status).toBe(200);
      expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
      // Each object carries the lifetime the edge's cache follows: a playlist a few seconds, an image ten minutes.
      expect(playlist.headers.get('cache-control')).toBe('public, max-age=10');
      expect(await playlist.text()).toBe('#EXTM3U\n');
      const poster = await anonymous('thumbs/pub/poster.jpg');
      expect([poster.status, poster.headers.get('cache-control')]).toEqual([200, 'public, max-age=600']);
      expect((await anonymous('sources/private.mp4')).status).toBe(403);
      // Parts of uploads never finished are removed by the server after a day.
      const lifecycle = await store.client.send(new GetBucketLifecycleConfigurationCommand({ Bucket: settings.bucket }));
      expect(lifecycle.Rules).toEqual([expect.objectContaining({ Status: 'Enabled', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } })]);
      // Listing the bucket is not for anyone either.
      expect((await fetch(`${settings.endpoint}/${settings.bucket}?list-type=2`)).status).toBe(403);
    } finally {
      await drop();
    }
  }, 180_000);

  it('keeps every key under S3_PREFIX, and answers keys without it', async () => {
    const { store, settings, drop } = await testS3Store('site-a/');
    try {
      await store.write('videos/x/index.m3u8', '#EXTM3U\n');
      expect(await keysOf(store, 'videos/')).toEqual(['videos/x/index.m3u8']);
      expect((await fetch(`${settings.endpoint}/${settings.bucket}/site-a/videos/x/index.m3u8`)).status).toBe(200);
      expect((await fetch(`${settings.endpoint}/${settings.bucket}/videos/x/index.m3u8`)).status).not.toBe(200);
    } finally {
      await drop();
    }
  }, 180_000);
});
