import { defineConfig } from 'vitest/config';

// End-to-end runs: the real app (built API + web client, fresh embedded database, demo clips made by ffmpeg)
// driven by Debian's Chromium through playwright-core. `npm run test:e2e` from the repository root builds first.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['./e2e/support/global-setup.ts'],
    // One app and one browser at a time: the machine has two cores, and the flows share the app's catalogue.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 600_000,
    restoreMocks: true,
  },
});
