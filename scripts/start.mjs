// `npm start`: builds the API and the web client when their sources changed, then serves both from one
// process on PORT (default 3000). The API runs its migrations at start-up.
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { ensureBuilt, root } from './build-state.mjs';

ensureBuilt();

const server = spawn(process.execPath, [path.join(root, 'backend', 'dist', 'main.js')], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
