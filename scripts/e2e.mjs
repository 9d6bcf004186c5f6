// `npm run test:e2e` (the last part of `npm test`): builds the API and the web client when their sources
// changed (as `npm start` does), makes sure Debian's Chromium is there, then runs the browser tests against the
// built app (frontend/e2e, started by scripts/test-app-server.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isBuildCurrent, markBuilt, root } from './build-state.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

if (!existsSync(chromium)) {
  // The tests drive Debian's Chromium, never a downloaded browser. On a fresh machine (as root, with apt) it is
  // installed here so that `npm test` works as it is; elsewhere the message says what to install.
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(`The browser tests need Chromium at ${chromium}: install Debian's "chromium" package (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  console.log('Installing Debian\'s chromium for the browser tests…');
  if (run('apt-get', ['update', '-qq']) !== 0) process.exit(1);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { cwd: root, stdio: 'inherit', env });
  if (install.status !== 0) process.exit(install.status ?? 1);
}

if (!isBuildCurrent()) {
  if (run(npm, ['run', 'build']) !== 0) process.exit(1);
  markBuilt();
}
process.exit(run(npm, ['run', 'test:e2e', '-w', 'frontend', '--', ...process.argv.slice(2)]));
