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
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 90_000,
  },
});
