// Builds dist/esm (ES modules) and dist/cjs (CommonJS), each with declaration files, using the repository's
// TypeScript. Runs on every `npm install` / `npm ci` (the root postinstall) and before the other builds.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch (error) {
  // An install without dev dependencies (`npm ci --omit=dev`) has no compiler: the postinstall leaves dist/ as it is.
  if (!process.argv.includes('--if-typescript')) throw error;
  console.warn('@hunktube/shared: TypeScript is not installed, so dist/ was not built (run `npm run build -w @hunktube/shared`).');
  process.exit(0);
}

rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
for (const [config, type] of [
  ['tsconfig.esm.json', 'module'],
  ['tsconfig.cjs.json', 'commonjs'],
]) {
  const { status } = spawnSync(process.execPath, [tsc, '-p', config], { cwd: dir, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
  // Node reads a .js file's module format from the nearest package.json.
  const out = path.join(dir, 'dist', type === 'module' ? 'esm' : 'cjs');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'package.json'), `${JSON.stringify({ type })}\n`);
}
