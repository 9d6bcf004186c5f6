import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
});
