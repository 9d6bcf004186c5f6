import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { INLINE_STYLE_MAX_BYTES, loadWebBuild } from './web-build';

const INDEX = `<!doctype html><html><head><title>Videos</title>
    <script type="module" crossorigin src="/assets/index-AAAAAAAA.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/main-BBBBBBBB.js">
    <link rel="modulepreload" crossorigin href="/assets/runtime-FFFFFFFF.js">
    <link rel="stylesheet" crossorigin href="/assets/index-GGGGGGGG.css">
  </head><body><div id="root"></div></body></html>`;

const SHEET = ':root{color-scheme:dark}.card{background:url(data:image/png;base64,AAAA) #111}\n';
const EARLY_MANIFEST = {
  'index.html': { file: 'assets/index-AAAAAAAA.js', isEntry: true, css: ['assets/index-GGGGGGGG.css'] },
  'src/early.ts': { file: 'assets/early-CCCCCCCC.js', isEntry: true },
};

describe('the web build as the server reads it', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'web-build-'));
    mkdirSync(path.join(root, '.vite'));
    writeFileSync(path.join(root, 'index.html'), INDEX);
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(path.join(root, 'assets', 'index-GGGGGGGG.css'), SHEET);
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

  describe('the rendered pages’ style sheet', () => {
    const sheet = (css: string) => writeFileSync(path.join(root, 'assets', 'index-GGGGGGGG.css'), css);
    const linked = '<link rel="stylesheet" crossorigin href="/assets/index-GGGGGGGG.css">';

    it('is written into their shell, with its CSP hash; the app’s own index.html keeps the link', () => {
      manifest(EARLY_MANIFEST);
      const build = loadWebBuild(root);
      expect(build?.early?.indexHtml).toContain(`<style>${SHEET.trim()}</style>${linked.replace('>', ' disabled>')}`);
      expect(build?.early?.indexHtml).not.toContain(`${linked}\n`);
      expect(build?.early?.styleHashes).toEqual([`'sha256-${createHash('sha256').update(SHEET.trim()).digest('base64')}'`]);
      expect(build?.indexHtml).toContain(linked);
    });

    it.each([
      ['larger than the bound', `.a{color:red}${' '.repeat(INLINE_STYLE_MAX_BYTES)}.b{color:blue}`],
      ['able to end its element early', '.a::after{content:"</style><script>alert(1)</script>"}'],
      ['naming a relative URL', '.a{background:url(./grain.png)}'],
      ['naming a quoted relative URL', '.a{background:url( "grain.png")}'],
    ])('stays a link when it is %s', (_case, css) => {
      sheet(css);
      manifest(EARLY_MANIFEST);
      const early = loadWebBuild(root)?.early;
      expect(early?.indexHtml).toContain(`${linked}\n`);
      expect(early?.indexHtml).not.toContain('<style>');
      expect(early?.indexHtml).not.toContain('disabled');
      expect(early?.styleHashes).toEqual([]);
    });
  });
});
