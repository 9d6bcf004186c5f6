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
    await storage.writeAtomic(target, Buffer.from('one'));
    await storage.writeAtomic(target, Buffer.from('two'));
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

  it("names a master playlist's first variant, the one hls.js starts with, and follows the file when it changes", async () => {
    const folder = path.join(storage.videosRoot, '2024/06/a');
    mkdirSync(folder, { recursive: true });
    const master = path.join(folder, 'index.m3u8');
    writeFileSync(master, '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=510400,RESOLUTION=428x240\n240p.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=1680800\n480p.m3u8\n');
    expect(await storage.firstVariant('videos/2024/06/a/index.m3u8')).toBe('videos/2024/06/a/240p.m3u8');
    // Rewritten (a replaced video): read again.
    writeFileSync(master, '#EXTM3U\r\n#EXT-X-STREAM-INF:BANDWIDTH=1\r\n360p.m3u8\r\n');
    const later = new Date(Date.now() + 5_000);
    utimesSync(master, later, later);
    expect(await storage.firstVariant('videos/2024/06/a/index.m3u8')).toBe('videos/2024/06/a/360p.m3u8');
  });

  it('names no variant for a missing master, one outside the store, or a variant outside its folder', async () => {
    expect(await storage.firstVariant('videos/2024/06/none/index.m3u8')).toBeNull();
    expect(await storage.firstVariant('../outside/index.m3u8')).toBeNull();
    const folder = path.join(storage.videosRoot, '2024/06/b');
    mkdirSync(folder, { recursive: true });
    for (const [index, line] of ['../c/240p.m3u8', '/videos/240p.m3u8', 'https://cdn.example/240p.m3u8', ''].entries()) {
      writeFileSync(path.join(folder, `index.m3u8`), `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n${line}\n`);
      const later = new Date(Date.now() + (index + 1) * 10_000);
      utimesSync(path.join(folder, 'index.m3u8'), later, later);
      expect(await storage.firstVariant('videos/2024/06/b/index.m3u8')).toBeNull();
    }
  });
});
