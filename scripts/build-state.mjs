// Knows whether the built API and web client match their sources, so `npm start` builds only when needed.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const INPUTS = [
  'package-lock.json',
  'tsconfig.json',
  // The shared package's sources: a change there rebuilds it and both workspaces that import it.
  'packages/shared/package.json',
  'packages/shared/tsconfig.esm.json',
  'packages/shared/tsconfig.cjs.json',
  'packages/shared/scripts',
  'packages/shared/src',
  'backend/package.json',
  'backend/tsconfig.json',
  'backend/tsconfig.build.json',
  'backend/src',
  'frontend/package.json',
  'frontend/tsconfig.json',
  'frontend/vite.config.ts',
  'frontend/index.html',
  'frontend/src',
  'frontend/public',
];
const STAMP = path.join(root, 'backend', 'dist', '.source-hash');
const OUTPUTS = ['backend/dist/main.js', 'frontend/dist/index.html', 'frontend/dist-server/entry-server.js'];

function* files(target) {
  if (!existsSync(target)) return;
  const stat = statSync(target);
  if (stat.isFile()) {
    yield target;
    return;
  }
  for (const entry of readdirSync(target, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    yield* files(path.join(target, entry.name));
  }
}

/** A hash of the build inputs' contents. */
export function sourceHash() {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(path.join(root, input))) {
      hash.update(path.relative(root, file));
      hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex');
}

export function isBuildCurrent() {
  if (!OUTPUTS.every((o) => existsSync(path.join(root, o)))) return false;
  return existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === sourceHash();
}

export function markBuilt() {
  writeFileSync(STAMP, `${sourceHash()}\n`);
}

/** Builds the API and the web client when their sources changed since the last build (`npm start`, the stack, the browser tests). */
export function ensureBuilt() {
  if (isBuildCurrent()) return;
  console.log('Building the API and the web client…');
  // A production build whoever asks: Vite would take a caller's NODE_ENV=test (Vitest's) and bundle React's
  // development JSX runtime into the server renderer, which production React cannot run.
  const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  if (build.status !== 0) process.exit(build.status ?? 1);
  markBuilt();
}

// `node scripts/build-state.mjs ensure`: the same from another program (the stack's tests); `current`: exits 0 when
// the build matches its sources, 1 when not (the process suites: backend/test/helpers/built-server.ts).
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'ensure') ensureBuilt();
if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'current') process.exit(isBuildCurrent() ? 0 : 1);
