import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Vitest's global set-up: after the run, stops the Ceph RGW that a test of this run started (test/helpers/s3.ts
 * writes this run's token to `run/owner` when it starts one) and removes its data. One that was running before,
 * or that another run started meanwhile (a second suite on the same machine), is left as it was: a run that
 * stopped another's RGW once failed that run's tests with ECONNREFUSED.
 */
export default function setup() {
  const dir = process.env.S3LAB_DIR ?? path.join(process.env.TMPDIR ?? '/tmp', 'hunktube-s3');
  const token = randomUUID();
  // Set before the workers start, which inherit it.
  process.env.HUNKTUBE_S3_RUN = token;
  return () => {
    const owner = path.join(dir, 'run', 'owner');
    if (!existsSync(owner) || readFileSync(owner, 'utf8').trim() !== token) return;
    spawnSync(path.resolve(__dirname, '../../../scripts/s3/stop-ceph-s3.sh'), { stdio: 'inherit', env: { ...process.env, S3LAB_DIR: dir } });
  };
}
