import { DeleteBucketCommand } from '@aws-sdk/client-s3';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { S3MediaStore, type S3Settings } from '../../src/media/store/s3-media-store';

/** The project's Ceph RGW scripts (scripts/s3), and the lock that keeps two test workers from starting it at once. */
const SCRIPTS = path.resolve(__dirname, '../../../scripts/s3');
export const S3_DIR = process.env.S3LAB_DIR ?? path.join(process.env.TMPDIR ?? '/tmp', 'hunktube-s3');
const LOCK = `${S3_DIR}.lock`;

let started: Omit<S3Settings, 'bucket' | 'prefix'> | undefined;

/**
 * A real S3 server for the tests: a single-node Ceph RGW on loopback (scripts/s3/start-ceph-s3.sh), started
 * when none of ours runs and reused when it does; stopped after the run (test/helpers/s3-global.ts). Throws
 * with the script's own message (naming the Debian packages when they are missing).
 */
export function testS3(): Omit<S3Settings, 'bucket' | 'prefix'> {
  if (started) return started;
  const run = spawnSync('flock', [LOCK, path.join(SCRIPTS, 'start-ceph-s3.sh')], {
    encoding: 'utf8',
    env: { ...process.env, S3LAB_DIR: S3_DIR },
    timeout: 180_000,
  });
  if (run.status !== 0) throw new Error(`The S3 tests need a Ceph RGW, and it did not start:\n${run.stderr}`);
  const vars = Object.fromEntries(
    run.stdout
      .split('\n')
      .map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], m[2]]),
  );
  started = {
    endpoint: vars.S3_ENDPOINT,
    region: vars.S3_REGION,
    accessKey: vars.S3_ACCESS_KEY,
    secretKey: vars.S3_SECRET_KEY,
    forcePathStyle: vars.S3_FORCE_PATH_STYLE === 'true',
  };
  return started;
}

/** A store on a bucket of its own (made, with its policy, by prepareBucket); `drop` empties and removes it. */
export async function testS3Store(prefix = ''): Promise<{ store: S3MediaStore; settings: S3Settings; drop: () => Promise<void> }> {
  const settings: S3Settings = { ...testS3(), bucket: `hunktube-test-${randomBytes(5).toString('hex')}`, prefix };
  const store = new S3MediaStore(settings);
  await store.prepareBucket();
  return {
    store,
    settings,
    drop: async () => {
      // Every object, whatever its prefix, then the bucket.
      const all = new S3MediaStore({ ...settings, prefix: '' });
      const keys: string[] = [];
      for await (const object of all.list('')) keys.push(object.key);
      for (const key of keys) await all.remove(key);
      await store.client.send(new DeleteBucketCommand({ Bucket: settings.bucket }));
      store.client.destroy();
      all.client.destroy();
    },
  };
}
