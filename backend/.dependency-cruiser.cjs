/**
 * The backend's module graph, checked by dependency-cruiser in `npm run lint` (docs/architecture.md › "Layers").
 * Each folder of src is a module and has a layer; a module imports only modules of lower layers ("calls go
 * down"), which also rules out cycles between modules. The entry points (main, the app module and factory, the
 * worker, the CLIs, the OpenAPI export) compose everything and stand outside the layers. `database/seeds` loads
 * whole catalogues through the ingest, so it is its own module, at the top.
 */
const { layers: LAYERS } = require('./module-layers.json');

const ENTRY_POINTS = '^src/(?:main|app\\.module|app\\.factory)\\.ts$|^src/.+\\.cli\\.ts$|^src/media/worker\\.ts$|^src/openapi/export-openapi\\.ts$';
/** The files of a module, by its name. */
const pathOf = (module) => (module === 'seeds' ? '^src/database/seeds/' : `^src/${module}/`);

const layerRules = LAYERS.slice(0, -1).map((module, i) => ({
  name: `calls-go-down-from-${module}`,
  comment: `${module} may import only modules below it: ${LAYERS.slice(0, i).join(', ') || '(none)'}`,
  severity: 'error',
  from: { path: pathOf(module), pathNot: [ENTRY_POINTS, ...(module === 'database' ? ['^src/database/seeds/'] : [])] },
  to: { path: LAYERS.slice(i + 1).map(pathOf) },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-module-in-no-layer',
      comment: 'Every folder of src has a layer: a new module is added to LAYERS (and to docs/architecture.md).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/[^/]+/', pathNot: LAYERS.map(pathOf).concat(['^src/types/']) },
    },
    {
      name: 'no-circular',
      comment: 'No file imports itself through others (a cycle within a module, too).',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
