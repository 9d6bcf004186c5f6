// `npm run test:e2e` (the last part of `npm test`): builds the API and the web client when their sources
// changed (as `npm start` does), makes sure Debian's Chromium and a Java are there, then runs the browser tests
// against the built app (frontend/e2e, started by scripts/test-app-server.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureBuilt, root } from './build-state.mjs';
import { commandRuns, ensureDebianPackage } from './debian-package.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

// The tests drive Debian's Chromium, never a downloaded browser.
ensureDebianPackage('chromium', () => existsSync(chromium), `The browser tests need Chromium at ${chromium} (or set CHROMIUM_PATH)`);
// The W3C Nu Html Checker (vnu-jar, frontend/e2e/validity.e2e.ts) runs on Java.
ensureDebianPackage('default-jre-headless', commandRuns('java', ['-version']), 'The page validity tests need Java on the PATH for the Nu Html Checker');

ensureBuilt();
process.exit(run(npm, ['run', 'test:e2e', '-w', 'frontend', '--', ...process.argv.slice(2)]));
