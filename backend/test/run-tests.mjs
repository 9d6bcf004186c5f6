// `npm test` for the backend: every suite on PGlite, then, when TEST_DATABASE_URL names a PostgreSQL server,
// the repository specs and the files that need the server (test/server-run.mjs) again on that server, then the
// stack. `--part=suites` runs all but the stack, `--part=stack` the stack alone: the repository's `npm test`
// (scripts/test.mjs) runs the stack beside the web client's suites (docs/testing.md › "How long it takes").
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { ensureBuilt } from '../../scripts/build-state.mjs';
import { commandRuns, ensureDebianPackage } from '../../scripts/debian-package.mjs';
import { SERVER_MARKERS, SERVER_RUN } from './server-run.mjs';

const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const PART = /^--part=(suites|stack)$/;
const part = process.argv.slice(2).map((arg) => PART.exec(arg)?.[1]).find(Boolean) ?? 'all';
const extra = process.argv.slice(2).filter((arg) => !PART.test(arg));

// The stack's nginx config is tested on Debian's nginx (secure_link and the micro-cache need the real thing).
ensureDebianPackage('nginx-light', commandRuns('nginx', ['-v']), 'The container stack tests need nginx on the PATH');
// npm run stack runs a Redis of its own (test/stack.e2e-spec.ts).
ensureDebianPackage('redis-server', commandRuns('redis-server', ['--version']), 'The stack tests need redis-server on the PATH');
// The sitemaps are validated against the official schemas by libxml2's xmllint.
ensureDebianPackage('libxml2-utils', commandRuns('xmllint', ['--version']), 'The sitemap tests need xmllint on the PATH');
// An encrypted stream from the bucket is played through the edge by hls.js and Shaka Player in Debian's Chromium.
ensureDebianPackage('chromium', () => existsSync('/usr/bin/chromium'), 'The encrypted playback test needs Chromium at /usr/bin/chromium');
// The S3 driver is tested on a real Ceph RGW (scripts/s3/start-ceph-s3.sh), from Debian's own packages.
ensureDebianPackage(
  ['ceph-mon', 'ceph-osd', 'radosgw', 'ceph-common'],
  () => ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'ceph', 'monmaptool', 'ceph-authtool'].every((command) => spawnSync('which', [command]).status === 0),
  'The media store tests need a Ceph RGW (an S3 server) on the PATH',
);

function run(label, env, args) {
  console.log(`\n=== backend tests: ${label} ===`);
  const result = spawnSync(process.execPath, [vitest, 'run', ...args, ...extra], { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// A file that asks which database it runs on, or opens server databases, and is not in the server run's list
// would be tested on PGlite only without anyone noticing: stop before running anything.
const backend = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const unlisted = readdirSync(path.join(backend, 'test'))
  .filter((name) => name.endsWith('.e2e-spec.ts'))
  .map((name) => `test/${name}`)
  .filter((file) => !(file in SERVER_RUN.files) && !(file in SERVER_RUN.only) && SERVER_MARKERS.test(readFileSync(path.join(backend, file), 'utf8')));
const missing = [...Object.keys(SERVER_RUN.files), ...Object.keys(SERVER_RUN.only)].filter((file) => {
  try {
    return !readFileSync(path.join(backend, file));
  } catch {
    return true;
  }
});
if (unlisted.length || missing.length) {
  for (const file of unlisted) console.error(`${file} depends on the database server it runs on: list it in test/server-run.mjs`);
  for (const file of missing) console.error(`test/server-run.mjs lists ${file}, which does not exist`);
  process.exit(1);
}

if (part !== 'stack') {
  // The built server, which the process and backup suites run as `npm start` does: built once here (when its
  // sources changed) rather than by each suite on each database.
  ensureBuilt();
  run('PGlite (embedded)', { TEST_DB: 'pglite' }, Object.keys(SERVER_RUN.only).flatMap((file) => ['--exclude', `**/${file}`]));
}
if (process.env.TEST_DATABASE_URL) {
  const server = new URL(process.env.TEST_DATABASE_URL).host;
  if (part !== 'stack') run(`PostgreSQL server (${server})`, { TEST_DB: 'postgres' }, [SERVER_RUN.specs, ...Object.keys(SERVER_RUN.files)]);
  // After the others: the stack puts the machine under load, which files of this run beside it would feel.
  if (part !== 'suites') run(`the stack on the PostgreSQL server (${server})`, { TEST_DB: 'postgres' }, Object.keys(SERVER_RUN.only));
} else if (part !== 'suites') {
  console.log(`\nNot run without TEST_DATABASE_URL (a PostgreSQL server): ${Object.keys(SERVER_RUN.only).join(', ')} (docs/testing.md)`);
}
