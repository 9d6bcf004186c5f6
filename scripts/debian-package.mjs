// Debian packages the test suites drive (Chromium for the browser tests, nginx for the stack's proxy tests):
// on a fresh machine, as root with apt, `npm test` installs them itself; elsewhere it stops with a message that
// names the package to install. Never a downloaded binary.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** How long an install waits for another apt or dpkg (a busy fresh machine) to release the package locks. */
const APT_LOCK_WAIT_SECONDS = 600;

/**
 * Runs apt-get, waiting for another apt or dpkg to finish rather than failing on its lock: `install` waits on
 * dpkg's lock by itself (DPkg::Lock::Timeout); `update` has no such option for the lists' lock (apt 2.6), so it
 * is tried again every few seconds while apt says the lock is held. Returns apt-get's exit status.
 */
export function aptGet(args, env = process.env) {
  const deadline = Date.now() + APT_LOCK_WAIT_SECONDS * 1000;
  for (let said = false; ; ) {
    const result = spawnSync('apt-get', ['-o', `DPkg::Lock::Timeout=${APT_LOCK_WAIT_SECONDS}`, ...args], {
      stdio: ['ignore', 'inherit', 'pipe'],
      env,
      encoding: 'utf8',
    });
    const held = /Could not get lock|Unable to lock/.test(result.stderr ?? '');
    if (!held || Date.now() > deadline) {
      process.stderr.write(result.stderr ?? '');
      return result.status ?? 1;
    }
    if (!said) {
      console.log(`apt-get ${args[0]}: another apt or dpkg holds the package lock; waiting for it (up to ${APT_LOCK_WAIT_SECONDS / 60} minutes)…`);
      said = true;
    }
    spawnSync('sleep', ['3']);
  }
}

/**
 * Makes sure `present()` holds, installing Debian's `pkg` (a package, or a list of them) when it does not and this
 * process may; exits with a message naming the packages (and `why`) when it cannot.
 */
export function ensureDebianPackage(packages, present, why) {
  if (present()) return;
  const pkg = [packages].flat().join(' ');
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.error(`${why}: install Debian's "${pkg}" package (apt-get install ${pkg}), then run it again.`);
    process.exit(1);
  }
  console.log(`Installing Debian's ${pkg} (${why.toLowerCase()})…`);
  console.log(`(when another apt or dpkg is running, this waits up to ${APT_LOCK_WAIT_SECONDS / 60} minutes for it to finish)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => aptGet(args, env);
  if (apt(['update', '-qq']) !== 0 || apt(['install', '-y', '-qq', '--no-install-recommends', ...[packages].flat()]) !== 0 || !present()) {
    console.error(`Could not install Debian's "${pkg}": ${why.toLowerCase()}.`);
    process.exit(1);
  }
}

/** Whether a command runs (found on the PATH). */
export const commandRuns = (command, args) => () => !spawnSync(command, args, { stdio: 'ignore' }).error;
