// `npm test`: the shared package's tests, the backend's suites (PGlite, then the PostgreSQL server when
// TEST_DATABASE_URL is set), the web client's component suites, then the browser tests. The backend's stack test
// (test/stack.e2e-spec.ts, on the server only) runs beside the web client's suites rather than after the backend's:
// it waits on real time for most of its 2-3 minutes (a steady load at a set rate, restarts, a rolling deploy) and
// used 40 % of the machine's two cores, which the web client's suites take meanwhile (docs/testing.md › "How long
// it takes"). Its output is kept in a file and printed whole when it ends, so the two runs' lines do not mix.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ensureBuilt, root } from './build-state.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const backend = path.join(root, 'backend');
const backendTests = path.join(backend, 'test', 'run-tests.mjs');

/** Runs a step in the foreground; stops `npm test` with its exit code when it fails (after the stack, if running). */
async function step(command, args, cwd = root) {
  const status = spawnSync(command, args, { cwd, stdio: 'inherit' }).status ?? 1;
  if (status !== 0) {
    await stack?.finish();
    process.exit(status);
  }
}

/** The stack test in the background, its output in a file until it ends. */
function startStack() {
  const dir = mkdtempSync(path.join(tmpdir(), 'hunktube-stack-run-'));
  const log = path.join(dir, 'output.log');
  const out = openSync(log, 'w');
  console.log(`\n=== the backend's stack test runs beside the web client's suites; its output: ${log} ===`);
  const child = spawn(process.execPath, [backendTests, '--part=stack'], { cwd: backend, stdio: ['ignore', out, out] });
  const exited = once(child, 'exit').then(([code, signal]) => code ?? (signal ? 1 : 0));
  // Ctrl-C or a CI timeout stops the stack too (its own processes are stopped by its teardown).
  const forward = (signal) => child.kill(signal);
  process.once('SIGINT', forward).once('SIGTERM', forward);
  return {
    async finish() {
      const status = await exited;
      console.log(`\n=== the backend's stack test (ran beside the web client's suites): ${status === 0 ? 'passed' : `failed (${status})`} ===`);
      process.stdout.write(readFileSync(log));
      rmSync(dir, { recursive: true, force: true });
      return status;
    },
  };
}

let stack;
await step(npm, ['test', '-w', '@hunktube/shared']);
await step(process.execPath, [backendTests, '--part=suites'], backend);
if (process.env.TEST_DATABASE_URL) {
  // Built once for both the stack and the browser tests (the backend's run has built it already unless the
  // sources changed meanwhile), so that neither builds while the other runs.
  ensureBuilt();
  stack = startStack();
} else {
  // Says which file it does not run without a PostgreSQL server.
  await step(process.execPath, [backendTests, '--part=stack'], backend);
}
await step(npm, ['test', '-w', 'frontend']);
await step(npm, ['run', 'test:e2e']);
if (stack) process.exit(await stack.finish());
