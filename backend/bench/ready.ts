import type { ChildProcess } from 'node:child_process';

/**
 * Waits until a process the bench started answers `url` with a 2xx, for the bench, the catalogue bench and
 * the soak alike. Throws when it exits first (`hint` says where to look), or kills it and throws when it has
 * not answered within `timeoutMs`.
 */
export async function waitUntilReady(child: ChildProcess, url: string, name: string, timeoutMs = 120_000, hint = ''): Promise<ChildProcess> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}${hint}`);
    try {
      if ((await fetch(url)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill();
  throw new Error(`${name} did not answer ${new URL(url).pathname} in time${hint}`);
}
