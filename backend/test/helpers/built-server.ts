import { execFileSync, spawnSync } from 'node:child_process';
import * as path from 'node:path';

const backend = path.resolve(__dirname, '..', '..');

/**
 * Makes sure `backend/dist` holds the server compiled from the current sources, for the suites that run it as
 * `npm start` and the commands do (the process and backup suites). `npm test` builds it once before
 * the suites (test/run-tests.mjs), and this is then a check of the sources' hash; a suite run on its own after a
 * change compiles the backend (tsc, incremental) first.
 */
export function ensureServerBuilt(): void {
  const current = spawnSync(process.execPath, [path.join(backend, '..', 'scripts', 'build-state.mjs'), 'current']).status === 0;
  if (current) return;
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(backend, 'tsconfig.build.json')], { stdio: 'inherit' });
}
