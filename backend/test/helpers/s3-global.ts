import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Vitest's global set-up: after the run, stops the Ceph RGW that a test started (test/helpers/s3.ts) and
 * removes its data; one that was already running before the run (a developer's) is left as it was.
 */
export default function setup() {
  const dir = process.env.S3LAB_DIR ?? path.join(process.env.TMPDIR ?? '/tmp', 'hunktube-s3');
  const runningBefore = existsSync(path.join(dir, 'run', 'rgw.pid'));
  return () => {
    if (runningBefore || !existsSync(path.join(dir, 'run'))) return;
    spawnSync(path.resolve(__dirname, '../../../scripts/s3/stop-ceph-s3.sh'), { stdio: 'inherit', env: { ...process.env, S3LAB_DIR: dir } });
  };
}
