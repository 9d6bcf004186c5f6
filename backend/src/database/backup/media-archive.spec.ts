import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { archiveMedia, extractMedia, mediaExcludes } from './media-archive';

describe('the media archive', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'media-archive-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves out work in progress, and our own folders when they live inside MEDIA_DIR', () => {
    expect(mediaExcludes('/data/media', ['/data/pglite', '/data/backups'])).toEqual(['./videos/.incoming', './thumbs/.incoming', './sources/.uploads', '*.tmp']);
    expect(mediaExcludes('/data', ['/data/pglite', '/data/pglite.lock', '/data/backups/x', '/data'])).toEqual([
      './videos/.incoming', './thumbs/.incoming', './sources/.uploads', '*.tmp', './pglite', './pglite.lock', './backups/x',
    ]);
  });

  it('round-trips the store through tar, without the work in progress', async () => {
    const media = path.join(dir, 'media');
    const files: Record<string, string> = {
      'videos/2024/06/clip/index.m3u8': '#EXTM3U\n',
      'thumbs/2024/06/clip/poster.jpg': 'jpeg bytes',
      'sources/2024/06/clip.mp4': 'mp4 bytes',
      'videos/.incoming/7/720p.m3u8': 'half done',
      'sources/.uploads/upload-1.mp4': 'arriving',
      'thumbs/2024/06/clip/poster.jpg.1a2b.tmp': 'being written',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(media, file)), { recursive: true });
      writeFileSync(path.join(media, file), text);
    }
    const archive = await archiveMedia(media, path.join(dir, 'media.tar'), mediaExcludes(media, []));
    expect(archive.bytes).toBeGreaterThan(0);
    expect(archive.sha256).toMatch(/^[0-9a-f]{64}$/);

    const restored = path.join(dir, 'restored');
    await extractMedia(path.join(dir, 'media.tar'), restored);
    const list = (root: string): string[] =>
      readdirSync(root, { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile())
        .map((e) => path.relative(restored, path.join(e.parentPath, e.name)))
        .sort();
    expect(list(restored)).toEqual(['sources/2024/06/clip.mp4', 'thumbs/2024/06/clip/poster.jpg', 'videos/2024/06/clip/index.m3u8']);
    expect(readFileSync(path.join(restored, 'thumbs/2024/06/clip/poster.jpg'), 'utf8')).toBe('jpeg bytes');
  });

  it('archives a store that does not exist yet as empty', async () => {
    await archiveMedia(path.join(dir, 'none'), path.join(dir, 'media.tar'), []);
    await extractMedia(path.join(dir, 'media.tar'), path.join(dir, 'restored'));
    expect(readdirSync(path.join(dir, 'restored'))).toEqual([]);
  });
});
