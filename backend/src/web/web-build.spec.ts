import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadWebBuild } from './web-build';

const INDEX = `<!doctype html><html><head><title>Videos</title>
    <script type="module" crossorigin src="/assets/index-AAAAAAAA.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/main-BBBBBBBB.js">
  </head><body><div id="root"></div></body></html>`;

describe('the web build as the server reads it', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'web-build-'));
    mkdirSync(path.join(root, '.vite'));
    writeFileSync(path.join(root, 'index.html'), INDEX);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const manifest = (entries: Record<string, unknown>) => writeFileSync(path.join(root, '.vite', 'manifest.json'), JSON.stringify(entries));

  it('knows the watch pages’ early script, the entry tag it replaces and its own imports to preload', () => {
    manifest({
      'index.html': { file: 'assets/index-AAAAAAAA.js', isEntry: true, imports: ['_main-BBBBBBBB.js'] },
      '_main-BBBBBBBB.js': { file: 'assets/main-BBBBBBBB.js' },
      'src/early.ts': { file: 'assets/early-CCCCCCCC.js', isEntry: true, imports: ['_load-hls-DDDDDDDD.js', '_main-BBBBBBBB.js'] },
      '_load-hls-DDDDDDDD.js': { file: 'assets/load-hls-DDDDDDDD.js' },
    });
    const build = loadWebBuild(root);
    expect(build?.early).toEqual({
      entryTag: '<script type="module" crossorigin src="/assets/index-AAAAAAAA.js"></script>',
      earlyTags:
        '<script type="module" crossorigin src="/assets/early-CCCCCCCC.js"></script>\n    <link rel="modulepreload" crossorigin href="/assets/load-hls-DDDDDDDD.js">',
    });
  });

  it('has none for a build without it, or whose shell does not hold the entry as Vite writes it', () => {
    manifest({ 'index.html': { file: 'assets/index-AAAAAAAA.js', isEntry: true } });
    expect(loadWebBuild(root)?.early).toBeNull();
    manifest({ 'index.html': { file: 'assets/index-EEEEEEEE.js', isEntry: true }, 'src/early.ts': { file: 'assets/early-CCCCCCCC.js' } });
    expect(loadWebBuild(root)?.early).toBeNull();
  });
});
