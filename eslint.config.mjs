import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/*
 * The web client's layers: app/ (routes) may import anything; each folder of features/ imports only itself and the
 * shared layers (api/, components/, lib/, testing/ and @hunktube/shared), never another feature; the shared layers
 * import no feature and no route. The built-in no-restricted-imports says so, one rule per feature folder (read
 * from the disk, so a new feature is covered at once): no plugin and no import resolver to keep in step with the
 * `@/` alias, which is the only way out of a feature (relative paths may not climb out of one).
 */
const features = readdirSync(new URL('./frontend/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const boundaries = [
  ...features.map((feature) => ({
    files: [`frontend/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*', `!@/features/${feature}`, `!@/features/${feature}/**`, '@/app', '@/app/**'],
              message: `features/${feature} imports no other feature and no route: move what both need to src/api, src/components or src/lib.`,
            },
            {
              group: ['../../*'],
              message: 'Leave a feature through the @/ alias (src/api, src/components, src/lib), never by a relative path.',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['frontend/src/{api,components,lib}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features', '@/features/**', '@/app', '@/app/**', '**/features/**', '**/app/**'],
              message: 'The shared layers (api, components, lib) import no feature and no route.',
            },
          ],
        },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-bench/**', '**/dist-server/**', '**/node_modules/**', '**/coverage/**', 'data/**', 'frontend/src/lib/api/schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  {
    // Nest injects by the runtime types of constructor parameters: those imports must stay value imports.
    files: ['backend/**/*.ts'],
    languageOptions: { globals: { ...globals.node } },
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // CommonJS by its extension (dependency-cruiser's configuration files).
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Browser tests and benchmarks run in Node and hand functions to the page, which run in the browser.
    files: ['frontend/e2e/**/*.ts', 'frontend/bench/**/*.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  ...boundaries,
);
