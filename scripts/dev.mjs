// `npm run dev`: the API rebuilt and restarted on change (port 3000) and Vite's dev server for the web client
// (port 5173, proxying /api to the API).
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { root } from './build-state.mjs';

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const watch = (config) => spawn(npx, ['tsc', '-p', config, '--watch', '--preserveWatchOutput'], { cwd: root, stdio: 'inherit' });
const children = [
  // The shared rules (packages/shared), rebuilt on change for both sides; `npm install` built them once.
  watch('packages/shared/tsconfig.cjs.json'),
  watch('packages/shared/tsconfig.esm.json'),
  watch('backend/tsconfig.build.json'),
  spawn(
    process.execPath,
    [
      '--watch-path', path.join(root, 'backend', 'dist'),
      '--watch-path', path.join(root, 'packages', 'shared', 'dist', 'cjs'),
      path.join(root, 'backend', 'dist', 'main.js'),
    ],
    { cwd: root, stdio: 'inherit' },
  ),
  spawn(npx, ['vite'], { cwd: path.join(root, 'frontend'), stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
