// Debian packages the test suites drive (Chromium for the browser tests, nginx for the stack's proxy tests):
// on a fresh machine, as root with apt, `npm test` installs them itself; elsewhere it stops with a message that
// names the package to install. Never a downloaded binary.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Makes sure `present()` holds, installing Debian's `pkg` when it does not and this process may; exits with a
 * message naming the package (and `why`) when it cannot.
 */
export function ensureDebianPackage(pkg, present, why) {
  if (present()) return;
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(`${why}: install Debian's "${pkg}" package (apt-get install ${pkg}), then run the tests again.`);
    process.exit(1);
  }
  console.log(`Installing Debian's ${pkg} (${why.toLowerCase()})…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => spawnSync('apt-get', args, { stdio: 'inherit', env }).status ?? 1;
  if (apt(['update', '-qq']) !== 0 || apt(['install', '-y', '-qq', '--no-install-recommends', pkg]) !== 0 || !present()) {
    console.error(`Could not install Debian's "${pkg}": ${why.toLowerCase()}.`);
    process.exit(1);
  }
}

/** Whether a command runs (found on the PATH). */
export const commandRuns = (command, args) => () => !spawnSync(command, args, { stdio: 'ignore' }).error;
