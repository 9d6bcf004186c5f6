import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadWebBuild } from './web-build';

const INDEX = `<!doctype html><html><head><title>Videos</title>
    <script type="module" crossorigin src="/assets/index-AAAAAAAA.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/main-BBBBBBBB.js">
    <link rel="modulepreload" crossorigin href="/assets/runtime-FFFFFFFF.js">
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

  it('knows the rendered pages’ early script: its imports (hls.js first with a stream) and a shell without the app’s entry or preloads', () => {
    manifest({
      'index.html': { file: 'assets/index-AAAAAAAA.js', isEntry: true, imports: ['_main-BBBBBBBB.js', '_runtime-FFFFFFFF.js'] },
      '_main-BBBBBBBB.js': { file: 'assets/main-BBBBBBBB.js' },
      '_runtime-FFFFFFFF.js': { file: 'assets/runtime-FFFFFFFF.js' },
      'src/early.ts': { file: 'assets/early-CCCCCCCC.js', isEntry: true, imports: ['_load-hls-DDDDDDDD.js', '_runtime-FFFFFFFF.js'] },
      '_load-hls-DDDDDDDD.js': { file: 'assets/load-hls-DDDDDDDD.js' },
      '../node_modules/hls.js/dist/hls.light.min.js': { file: 'assets/hls.light.min-EEEEEEEE.js', imports: ['_runtime-FFFFFFFF.js'] },
    });
    const early = loadWebBuild(root)?.early;
    expect(early?.script).toBe('/assets/early-CCCCCCCC.js');
    // hls.js first on a page with a stream; a page without one (a listing) does not fetch it.
    expect(early?.imports).toEqual({
      stream: ['/assets/hls.light.min-EEEEEEEE.js', '/assets/runtime-FFFFFFFF.js', '/assets/load-hls-DDDDDDDD.js'],
      still: ['/assets/load-hls-DDDDDDDD.js', '/assets/runtime-FFFFFFFF.js'],
    });
    const shell = early?.indexHtml;
    expect(shell).not.toContain('index-AAAAAAAA.js');
    expect(shell).not.toContain('modulepreload');
    expect(shell).toContain('<div id="root"></div>');
  });

  it('has none for a build without it, or whose shell does not hold the entry as Vite writes it', () => {
    manifest({ 'index.html': { file: 'assets/index-AAAAAAAA.js', isEntry: true } });
    expect(loadWebBuild(root)?.early).toBeNull();
    manifest({ 'index.html': { file: 'assets/index-EEEEEEEE.js', isEntry: true }, 'src/early.ts': { file: 'assets/early-CCCCCCCC.js' } });
    expect(loadWebBuild(root)?.early).toBeNull();
  });
});
