import react from '@vitejs/plugin-react';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

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
    apply: 'build',
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

// The API (and, in the embedded set-up, signed media and thumbnails) is served by the backend on :3000.
const backend = 'http://localhost:3000';

export default defineConfig({
  plugins: [react(), precompress()],
  // `@/…` imports resolve to src/ through the "paths" of tsconfig.json.
  resolve: { tsconfigPaths: true },
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
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
