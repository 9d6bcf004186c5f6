// `npm start`: builds the API and the web client when their sources changed, then serves both from one
// process on PORT (default 3000). The API runs its migrations at start-up.
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { isBuildCurrent, markBuilt, root } from './build-state.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

if (!isBuildCurrent()) {
  console.log('Building the API and the web client…');
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  markBuilt();
}

const server = spawn(process.execPath, [path.join(root, 'backend', 'dist', 'main.js')], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
