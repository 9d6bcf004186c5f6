import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The API (and, in the embedded set-up, signed media and thumbnails) is served by the backend on :3000.
const backend = 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
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
