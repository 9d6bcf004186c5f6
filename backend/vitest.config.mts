import { defineConfig } from 'vitest/config';

/**
 * Backend tests run on Vitest (Jest's API: describe/it/expect as globals). NestJS 12 ships ES modules only,
 * and Jest on Node 20 cannot require them; Vitest loads them natively. Oxc compiles our TypeScript with
 * legacy decorators and their metadata, as tsc does for the build.
 */
export default defineConfig({
  oxc: {
    decorator: { legacy: true, emitDecoratorMetadata: true },
  },
  test: {
    globals: true,
    environment: 'node',
    include: ['src/**/*.spec.ts', 'test/**/*.e2e-spec.ts', 'test/**/*.int-spec.ts'],
    setupFiles: ['./test/helpers/setup.ts'],
    globalSetup: ['./test/helpers/s3-global.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Each of the two workers imports the app once and runs its files one after the other, rather than importing
    // Nest, TypeORM, PGlite and the app again for every file (213 s of a 620 s run; the whole PGlite run took
    // 356 s with this, against 620-780 s without, on 2026-11-27: docs/testing.md › "How long it takes"). Files
    // share no state but the modules': every app, database and Redis prefix is a file's own, no file mocks a
    // module, and what a file changes at module level it sets back (test/helpers/setup.ts runs before each).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
