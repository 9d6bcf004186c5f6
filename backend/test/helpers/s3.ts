import { DeleteBucketCommand } from '@aws-sdk/client-s3';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { S3Settings } from '../../src/config/app-config';
import { S3MediaStore } from '../../src/media/store/s3-media-store';

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
  // `-o`: the daemons the script leaves running must not inherit the lock, or the next worker would wait on it
  // for as long as the cluster runs.
  const run = spawnSync('flock', ['-o', LOCK, path.join(SCRIPTS, 'start-ceph-s3.sh')], {
    encoding: 'utf8',
    env: { ...process.env, S3LAB_DIR: S3_DIR },
    timeout: 180_000,
  });
  if (run.status !== 0) {
    const how = run.error ? run.error.message : run.signal ? `killed by ${run.signal}` : `exit status ${run.status}`;
    throw new Error(`The S3 tests need a Ceph RGW, and scripts/s3/start-ceph-s3.sh did not start it (${how}):\n${run.stderr}`);
  }
  const vars = Object.fromEntries(
    run.stdout
      .split('\n')
      .map((line) => /^([A-Z0-9_]+)=(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => [m[1], m[2]]),
  );
  // Started here (not reused): this run's to stop (test/helpers/s3-global.ts).
  if (!/reusing it/.test(run.stderr ?? '') && process.env.HUNKTUBE_S3_RUN) writeFileSync(path.join(S3_DIR, 'run', 'owner'), process.env.HUNKTUBE_S3_RUN);
  started = {
    endpoint: vars.S3_ENDPOINT,
    region: vars.S3_REGION,
    accessKey: vars.S3_ACCESS_KEY,
    secretKey: vars.S3_SECRET_KEY,
    forcePathStyle: vars.S3_FORCE_PATH_STYLE === 'true',
  };
  return started;
}

/** Settings of a bucket of the caller's own on the test server (made by the store's prepareBucket). */
export function testS3Settings(prefix = ''): S3Settings {
  return { ...testS3(), bucket: `hunktube-test-${randomBytes(5).toString('hex')}`, prefix };
}

/** The app's settings (MEDIA_STORE=s3, S3_*) for a bucket; `endpoint` reaches the server another way (a proxy). */
export function s3Env(settings: S3Settings, endpoint = settings.endpoint): Record<string, string> {
  return {
    MEDIA_STORE: 's3', S3_ENDPOINT: endpoint, S3_REGION: settings.region, S3_BUCKET: settings.bucket, S3_ACCESS_KEY: settings.accessKey,
    S3_SECRET_KEY: settings.secretKey, S3_FORCE_PATH_STYLE: String(settings.forcePathStyle), S3_PREFIX: settings.prefix,
  };
}

/** Every object of the bucket (whatever its prefix), by key. */
export async function bucketKeys(settings: S3Settings): Promise<string[]> {
  const all = new S3MediaStore({ ...settings, prefix: '' });
  const keys: string[] = [];
  for await (const object of all.list('')) keys.push(object.key);
  all.client.destroy();
  return keys;
}

/** Empties the bucket and removes it. */
export async function dropBucket(settings: S3Settings): Promise<void> {
  const all = new S3MediaStore({ ...settings, prefix: '' });
  for (const key of await bucketKeys(settings)) await all.remove(key);
  await all.client.send(new DeleteBucketCommand({ Bucket: settings.bucket })).catch((error: { name?: string }) => {
    if (error.name !== 'NoSuchBucket') throw error;
  });
  all.client.destroy();
}

/** A store on a bucket of its own (made, with its policy, by prepareBucket); `drop` empties and removes it. */
export async function testS3Store(prefix = ''): Promise<{ store: S3MediaStore; settings: S3Settings; drop: () => Promise<void> }> {
  const settings = testS3Settings(prefix);
  const store = new S3MediaStore(settings);
  await store.prepareBucket();
  return {
    store,
    settings,
    drop: async () => {
      await dropBucket(settings);
      store.client.destroy();
    },
  };
}
