// `npm run lint`: ESLint over the repository, dependency-cruiser's layers of both workspaces, and each workspace's
// type check. They are independent and mostly single-threaded, so they run two at a time (the machine has two
// cores; 67 s one after the other, measured 2026-11-29: docs/testing.md › "How long it takes"), each one's output
// kept and printed whole when it ends. Any failure fails the lint, after the others have ended.
import { spawn } from 'node:child_process';
import { root } from './build-state.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const LANES = 2;

// Longest first (the order they are started in).
const tasks = [
  ['ESLint', npx, ['eslint', '.']],
  ['type check: the web client', npm, ['run', 'typecheck', '-w', 'frontend']],
  ['type check: the API', npm, ['run', 'typecheck', '-w', 'backend']],
  ['layers (dependency-cruiser)', npm, ['run', 'lint:deps', '-w', 'backend', '-w', 'frontend']],
  ['type check: the shared package', npm, ['run', 'typecheck', '-w', '@hunktube/shared']],
];

function run([name, command, args]) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      console.log(`--- ${name}: ${status === 0 ? 'ok' : `failed (${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      process.stdout.write(Buffer.concat(chunks));
      resolve(status);
    });
  });
}

const queue = [...tasks];
const statuses = [];
await Promise.all(
  Array.from({ length: LANES }, async () => {
    for (let task = queue.shift(); task; task = queue.shift()) statuses.push(await run(task));
  }),
);
process.exit(statuses.some((status) => status !== 0) ? 1 : 0);
