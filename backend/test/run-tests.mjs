// `npm test` for the backend: every suite on PGlite, then, when TEST_DATABASE_URL names a PostgreSQL server,
// the e2e and integration suites again on that server.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { commandRuns, ensureDebianPackage } from '../../scripts/debian-package.mjs';

const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const extra = process.argv.slice(2);

// The stack's nginx config is tested on Debian's nginx (secure_link and the micro-cache need the real thing).
ensureDebianPackage('nginx-light', commandRuns('nginx', ['-v']), 'The container stack tests need nginx on the PATH');
// The sitemaps are validated against the official schemas by libxml2's xmllint.
ensureDebianPackage('libxml2-utils', commandRuns('xmllint', ['--version']), 'The sitemap tests need xmllint on the PATH');

function run(label, env, args) {
  console.log(`\n=== backend tests: ${label} ===`);
  const result = spawnSync(process.execPath, [vitest, 'run', ...args, ...extra], { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run('PGlite (embedded)', { TEST_DB: 'pglite' }, []);
if (process.env.TEST_DATABASE_URL) {
  run(`PostgreSQL server (${new URL(process.env.TEST_DATABASE_URL).host})`, { TEST_DB: 'postgres' }, ['test/']);
}
