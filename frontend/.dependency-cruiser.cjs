/**
 * The web client's module graph beyond what ESLint checks: ESLint's no-restricted-imports keeps each feature to
 * itself and the shared layers below every feature (eslint.config.mjs, one rule per feature folder); this, run by
 * `npm run lint` on the resolved imports, forbids cycles between files (docs/architecture.md › "Layers").
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No file imports itself through others: a type both need moves to the lower of the two.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.tsx?$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
