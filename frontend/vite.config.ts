import react from '@vitejs/plugin-react';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Component suites that need Node's own globals beside jsdom's window (a VM context has only the window's): the
 * server renderer's timers (`unref`) and the early script's `performance.mark`.
 */
const NODE_GLOBALS = ['src/entry-server.test.tsx', 'src/early.test.ts'];

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/** Text files of the build worth compressing; index.html is the server's to fill in and send (backend/src/web). */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|map|webmanifest)$/;

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy beside every script, style sheet and other
 * text file of the build over 1 kB, once, at build time: the embedded server sends the copy the browser takes
 * (backend/src/web/web-client.middleware.ts) and nginx's gzip_static the `.gz`, instead of compressing each
 * request. A copy that would not be smaller is not written.
 */
function precompress(): Plugin {
  return {
    name: 'hunktube:precompress',
    // The browser's files only: the server's render module (dist-server/) is read from disk by the API.
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      await Promise.all(
        Object.values(bundle).map(async (output) => {
          if (!COMPRESSIBLE.test(output.fileName)) return;
          const source = Buffer.from(output.type === 'chunk' ? output.code : output.source);
          if (source.length < 1024) return;
          const file = path.join(dir, output.fileName);
          const [br, gz] = await Promise.all([
            brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }),
            gzipped(source, { level: 9 }),
          ]);
          if (br.length < source.length) await writeFile(`${file}.br`, br);
          if (gz.length < source.length) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

/**
 * Scripts left to V8's lazy compiling: hls.js and the VAST client, on the way to a first frame (the content's, the
 * ad's) and used in part; with the hint on them both first frames came later (docs/web-client.md › "Boot work").
 */
const COMPILED_LAZILY = /hls\.light|vast-client/;

/**
 * V8's explicit compile hint (`//# allFunctionsCalledOnLoad`, Chromium 136 on) at the top of every script of the
 * build but COMPILED_LAZILY: V8 then compiles its functions while the file streams in, on a thread of its own,
 * instead of on the page's thread at each function's first call (docs/web-client.md › "Boot work": measured).
 * Other browsers read a comment.
 */
function compileHints(): Plugin {
  return {
    name: 'hunktube:compile-hints',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    // Once the chunks are minified (which drops comments) and Vite has put its own lines first.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const output of Object.values(bundle)) {
          if (output.type === 'chunk' && !COMPILED_LAZILY.test(output.fileName)) output.code = `//# allFunctionsCalledOnLoad\n${output.code}`;
        }
      },
    },
  };
}

/** The modules src/early.ts imports, directly or not: hls.js aside, which it loads on its own. */
const EARLY_IMPORTS =
  /(?:src[\\/](?:features[\\/]ads[\\/](?:early-preroll|utils[\\/](?:choose-zone|impressions|macros))|features[\\/]watch[\\/]utils[\\/](?:early-stream|load-hls|start-time|stream-config)|lib[\\/](?:app-hydrated|resume-position|storage))\.ts|packages[\\/]shared[\\/]dist[\\/]esm[\\/]start-time\.js)$/;

// The API (and, in the embedded set-up, signed media and thumbnails) is served by the backend on :3000.
const backend = 'http://localhost:3000';

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), compileHints(), precompress()],
  // The server's render module runs React's production build, as the browser's bundle does.
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  resolve: {
    // `@/…` imports resolve to src/ through the "paths" of tsconfig.json.
    tsconfigPaths: true,
    // hls.js's light build as published for script tags: it carries its transmuxer worker and starts it from a
    // blob (the CSP's worker-src allows blob:), where the ES module build can only run it on the main thread or
    // fetch it as another file first (docs/web-client.md › "First frame").
    ...(isSsrBuild ? {} : { alias: [{ find: /^hls\.js\/light$/, replacement: 'hls.js/dist/hls.light.min.js' }] }),
  },
  server: {
    proxy: {
      '/api': backend,
      // Anchored so that client routes starting with "s" (/search, /settings) stay with Vite.
      '^/s/': backend,
      '/thumbs/': backend,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which scripts and style sheets each route's module needs, for the server's
    // rendered pages to name them in their head (read by backend/src/web/web-build.ts, named by src/entry-server.tsx).
    manifest: true,
    // A second entry: the first script of server-rendered pages, which loads the app once the page shows its first
    // picture, a watch page's after starting its stream (src/early.ts; the render names it in place of index.html's
    // entry, src/entry-server.tsx).
    rollupOptions: isSsrBuild
      ? undefined
      : {
          input: { index: path.resolve(__dirname, 'index.html'), early: path.resolve(__dirname, 'src/early.ts') },
          // What the early script imports (and the app shares with it: the stream it hands over) in one chunk
          // rather than two, beside the bundler's runtime (which Rolldown places itself): each is a request and
          // a module to compile before the stream can start (docs/web-client.md › "First frame").
          output: { codeSplitting: { groups: [{ name: 'early-imports', test: EARLY_IMPORTS }] } },
        },
  },
  // `vite build --ssr src/entry-server.tsx` (docs/web-client.md › "Server rendering"): one self-contained module
  // for the API to import, its dependencies (React, the router, TanStack Query) bundled in.
  ssr: { noExternal: true },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    // Both cores (Vitest's default leaves one free): the 50 files take 107 s instead of 150 s here, measured
    // 2026-11-27 (docs/testing.md › "How long it takes"). The longest test then takes 1.8 s: the timeout leaves a
    // slower machine room.
    maxWorkers: 2,
    projects: [
      {
        // Each file in a VM context of a worker that keeps jsdom and the dependencies loaded, rather than a new
        // process that loads them again: setting up jsdom took 98-140 s of the suite's 167-243 s (2026-11-29,
        // docs/testing.md › "How long it takes"). A file still starts with a fresh window and fresh modules.
        extends: true,
        test: { name: 'components', include: ['src/**/*.test.{ts,tsx}'], exclude: [...configDefaults.exclude, ...NODE_GLOBALS], pool: 'vmThreads' },
      },
      { extends: true, test: { name: 'node-globals', include: NODE_GLOBALS, pool: 'forks' } },
    ],
    testTimeout: 15_000,
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
  },
}));
