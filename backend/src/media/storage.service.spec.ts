import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { AppConfig } from '../config/app-config';
import { OutsideStoreError, StorageService } from './storage.service';

describe('StorageService', () => {
  let dir: string;
  let storage: StorageService;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'media-'));
    storage = new StorageService({ mediaDir: path.join(dir, 'media') } as AppConfig);
    mkdirSync(storage.thumbsRoot, { recursive: true });
    mkdirSync(storage.videosRoot, { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('resolves a relative path inside its root', async () => {
    expect(await storage.resolveInside(storage.thumbsRoot, '2024/06/a/poster.jpg')).toBe(path.join(storage.thumbsRoot, '2024/06/a/poster.jpg'));
    expect(await storage.resolveInside(storage.thumbsRoot, '/2024/x.jpg')).toBe(path.join(storage.thumbsRoot, '2024/x.jpg'));
  });

  it.each(['../secret', '2024/../../x', 'a/./b', '', '/', 'a\0b', '..'])('refuses %j', async (relative) => {
    await expect(storage.resolveInside(storage.thumbsRoot, relative)).rejects.toThrow(OutsideStoreError);
  });

  it('refuses a path that leaves the root through a symlink', async () => {
    const outside = path.join(dir, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, path.join(storage.thumbsRoot, 'escape'));
    await expect(storage.resolveInside(storage.thumbsRoot, 'escape/poster.jpg')).rejects.toThrow(OutsideStoreError);
  });

  it('writes atomically, leaving no temporary file', async () => {
    const target = path.join(storage.thumbsRoot, 'a/b/poster.jpg');
    await storage.writeObject('thumbs/a/b/poster.jpg', Buffer.from('one'));
    await storage.writeObject('thumbs/a/b/poster.jpg', Buffer.from('two'));
    expect(readFileSync(target, 'utf8')).toBe('two');
    expect(readdirSync(path.dirname(target))).toEqual(['poster.jpg']);
  });

  it("removes one video's folders and nothing else", async () => {
    for (const root of [storage.videosRoot, storage.thumbsRoot]) {
      for (const stem of ['2024/06/a', '2024/06/ab']) {
        mkdirSync(path.join(root, stem), { recursive: true });
        writeFileSync(path.join(root, stem, 'f'), 'x');
      }
    }
    await storage.removeVideoMedia('2024/06/a');
    expect(readdirSync(path.join(storage.videosRoot, '2024/06'))).toEqual(['ab']);
    expect(readdirSync(path.join(storage.thumbsRoot, '2024/06'))).toEqual(['ab']);
    await storage.removeVideoMedia('../..');
    expect(readdirSync(dir)).toContain('media');
  });

  const VARIANT = '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\n240p_000.ts\n#EXTINF:4.0,\n240p_001.ts\n#EXTINF:2.0,\n240p_002.ts\n#EXT-X-ENDLIST\n';
  const MASTER = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=510400,RESOLUTION=428x240\n240p.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1680800\n480p.m3u8\n';
  const later = (file: string, seconds: number) => {
    const when = new Date(Date.now() + seconds * 1000);
    utimesSync(file, when, when);
  };

  it("names where hls.js starts a stream: the master's first variant and its segment at a position", async () => {
    const folder = path.join(storage.videosRoot, '2024/06/a');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'index.m3u8'), MASTER);
    writeFileSync(path.join(folder, '240p.m3u8'), VARIANT);
    const master = 'videos/2024/06/a/index.m3u8';
    expect(await storage.streamStart(master, 0)).toEqual({ variant: 'videos/2024/06/a/240p.m3u8', segment: 'videos/2024/06/a/240p_000.ts' });
    expect(await storage.streamStart(master, 4)).toEqual({ variant: 'videos/2024/06/a/240p.m3u8', segment: 'videos/2024/06/a/240p_001.ts' });
    expect(await storage.streamStart(master, 9.5)).toEqual({ variant: 'videos/2024/06/a/240p.m3u8', segment: 'videos/2024/06/a/240p_002.ts' });
    // Past the end: no segment to preload, the variant still.
    expect(await storage.streamStart(master, 10)).toEqual({ variant: 'videos/2024/06/a/240p.m3u8', segment: null });
  });

  it('follows the playlists when they are written again (a replaced video)', async () => {
    const folder = path.join(storage.videosRoot, '2024/06/a');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'index.m3u8'), MASTER);
    writeFileSync(path.join(folder, '240p.m3u8'), VARIANT);
    writeFileSync(path.join(folder, '360p.m3u8'), VARIANT.replaceAll('240p_', '360p_'));
    const master = 'videos/2024/06/a/index.m3u8';
    expect(await storage.streamStart(master, 0)).toEqual({ variant: 'videos/2024/06/a/240p.m3u8', segment: 'videos/2024/06/a/240p_000.ts' });
    writeFileSync(path.join(folder, '240p.m3u8'), VARIANT.replace('240p_000.ts', 'first.ts'));
    later(path.join(folder, '240p.m3u8'), 5);
    expect((await storage.streamStart(master, 0))?.segment).toBe('videos/2024/06/a/first.ts');
    writeFileSync(path.join(folder, 'index.m3u8'), '#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\n360p.m3u8\r\n');
    later(path.join(folder, 'index.m3u8'), 5);
    expect(await storage.streamStart(master, 0)).toEqual({ variant: 'videos/2024/06/a/360p.m3u8', segment: 'videos/2024/06/a/360p_000.ts' });
  });

  it('names the key a sealed first segment needs, which hls.js asks for just before it', async () => {
    const folder = path.join(storage.videosRoot, '2024/06/sealed');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'index.m3u8'), MASTER);
    writeFileSync(path.join(folder, '240p.m3u8'), VARIANT.replace('#EXTINF', '#EXT-X-KEY:METHOD=AES-128,URI="0123456789abcdef.key"\n#EXTINF'));
    expect(await storage.streamStart('videos/2024/06/sealed/index.m3u8', 0)).toEqual({
      variant: 'videos/2024/06/sealed/240p.m3u8', segment: 'videos/2024/06/sealed/240p_000.ts', key: 'videos/2024/06/sealed/0123456789abcdef.key',
    });
  });

  it('names nothing for a missing master, one outside the store, or a variant outside its folder', async () => {
    expect(await storage.streamStart('videos/2024/06/none/index.m3u8', 0)).toBeNull();
    expect(await storage.streamStart('../outside/index.m3u8', 0)).toBeNull();
    const folder = path.join(storage.videosRoot, '2024/06/b');
    mkdirSync(folder, { recursive: true });
    for (const [index, line] of ['../c/240p.m3u8', '/videos/240p.m3u8', 'https://cdn.example/240p.m3u8', ''].entries()) {
      writeFileSync(path.join(folder, `index.m3u8`), `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n${line}\n`);
      later(path.join(folder, 'index.m3u8'), (index + 1) * 10);
      expect(await storage.streamStart('videos/2024/06/b/index.m3u8', 0)).toBeNull();
    }
  });

  it('names the variant and no segment when the variant is missing, unreadable as plain files, or leads out of the store', async () => {
    const folder = path.join(storage.videosRoot, '2024/06/c');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'index.m3u8'), MASTER);
    const master = 'videos/2024/06/c/index.m3u8';
    expect(await storage.streamStart(master, 0)).toEqual({ variant: 'videos/2024/06/c/240p.m3u8', segment: null });
    writeFileSync(path.join(folder, '240p.m3u8'), VARIANT.replace('240p_000.ts', '../d/240p_000.ts'));
    expect(await storage.streamStart(master, 0)).toEqual({ variant: 'videos/2024/06/c/240p.m3u8', segment: null });
    rmSync(path.join(folder, '240p.m3u8'));
    const outside = path.join(dir, 'outside.m3u8');
    writeFileSync(outside, VARIANT);
    symlinkSync(outside, path.join(folder, '240p.m3u8'));
    expect(await storage.streamStart(master, 0)).toEqual({ variant: 'videos/2024/06/c/240p.m3u8', segment: null });
  });
});
