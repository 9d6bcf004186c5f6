import type * as S3Sdk from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import type * as StorageSdk from '@aws-sdk/lib-storage';
import { createRequire } from 'node:module';
import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { writeAtomic } from './disk-media-store';
import type { S3Settings } from '../../config/app-config';
import {
  type ByteRange,
  checkKey,
  cacheControlOf,
  checkPrefix,
  contentTypeOf,
  type MediaStore,
  ObjectNotFoundError,
  type ObjectRead,
  publishOrder,
  RangeNotSatisfiableError,
  type StoredObject,
  type WriteOptions,
} from './media-store';

/**
 * The AWS SDK, loaded when the first S3 store is made: a site on disk never loads it (8 MB of heap and
 * 150-300 ms of start-up in every process otherwise, measured on 2026-11-28).
 */
const load = createRequire(__filename);
let sdk: { s3: typeof S3Sdk; storage: typeof StorageSdk } | undefined;
const aws = () => (sdk ??= { s3: load('@aws-sdk/client-s3') as typeof S3Sdk, storage: load('@aws-sdk/lib-storage') as typeof StorageSdk });

/** The folders the edge may read without credentials (renditions and images); `sources/` stays private. */
export const PUBLIC_FOLDERS = ['videos/', 'thumbs/'] as const;

/** Parts of a multipart upload: S3's least but the last is 5 MiB; two in flight bound the memory to about 16 MiB. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/** Tries of each request, with the SDK's exponential backoff and jitter between them ("standard" retries). */
const MAX_ATTEMPTS = 5;
const DELETE_BATCH = 1000;

/**
 * The `s3` driver: each key is an object of S3_BUCKET (after S3_PREFIX), through the AWS SDK v3. Writes are
 * whole-object (a single PUT, or a multipart upload that the server publishes only once complete and that is
 * aborted on failure), reads stream with ranges, and every request is retried with backoff. Checksums are
 * asked for only where S3 requires them: Ceph RGW refuses the SDK's default streamed-checksum uploads (411;
 * ../shared/tools/ceph-s3/README.md).
 */
export class S3MediaStore implements MediaStore {
  readonly driver = 's3';
  readonly client: S3Client;

  constructor(readonly settings: S3Settings) {
    this.client = new (aws().s3.S3Client)({
      endpoint: settings.endpoint || undefined,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKey, secretAccessKey: settings.secretKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: MAX_ATTEMPTS,
      retryMode: 'standard',
      // A server that does not answer is a fault like one that refuses: 3 s to connect, 30 s of silence on a
      // request (per part of an upload, not for the whole file).
      requestHandler: { connectionTimeout: 3_000, requestTimeout: 30_000 },
    });
  }

  /**
   * Makes the bucket when it is missing, and lets anyone read its public folders (renditions and images, which
   * the edge fetches without credentials; the media token is checked by the edge in front). Sources stay
   * private. A bucket policy rather than object ACLs: MinIO, the compose stack's server, has no ACLs.
   */
  async prepareBucket(): Promise<void> {
    const { bucket } = this.settings;
    const exists = await this.client.send(new (aws().s3.HeadBucketCommand)({ Bucket: bucket })).then(
      () => true,
      (error: unknown) => {
        if (statusOf(error) === 404) return false;
        throw error;
      },
    );
    if (!exists) await this.client.send(new (aws().s3.CreateBucketCommand)({ Bucket: bucket }));
    const policy = {
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'EdgeReadsRenditionsAndImages',
          Effect: 'Allow',
          Principal: { AWS: ['*'] },
          Action: ['s3:GetObject'],
          Resource: PUBLIC_FOLDERS.map((folder) => `arn:aws:s3:::${bucket}/${this.settings.prefix}${folder}*`),
        },
      ],
    };
    await this.client.send(new (aws().s3.PutBucketPolicyCommand)({ Bucket: bucket, Policy: JSON.stringify(policy) }));
    // The parts of an upload that was neither completed nor aborted (the connection lost for good): removed by the
    // server after a day. They were never an object: nothing reads them, but they take room.
    await this.client.send(
      new (aws().s3.PutBucketLifecycleConfigurationCommand)({
        Bucket: bucket,
        LifecycleConfiguration: {
          Rules: [{ ID: 'abort-incomplete-uploads', Status: 'Enabled', Filter: { Prefix: '' }, AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 } }],
        },
      }),
    );
  }

  /** The object key of a media key (S3_PREFIX before it). */
  objectKey(key: string): string {
    return `${this.settings.prefix}${checkKey(key)}`;
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new (aws().s3.HeadObjectCommand)({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return { key, size: head.ContentLength ?? 0, modifiedAt: head.LastModified?.getTime() ?? 0, version: head.ETag ?? '' };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<ObjectRead> {
    try {
      const answer = await this.client.send(
        new (aws().s3.GetObjectCommand)({ Bucket: this.settings.bucket, Key: this.objectKey(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      const body = answer.Body as Readable;
      // `Content-Range: bytes 0-99/1234` on a ranged answer; the length alone on a whole one.
      const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(answer.ContentRange ?? '');
      const size = contentRange ? Number(contentRange[3]) : answer.ContentLength ?? 0;
      const sent = contentRange ? { start: Number(contentRange[1]), end: Number(contentRange[2]) } : { start: 0, end: Math.max(0, size - 1) };
      return { key, size, modifiedAt: answer.LastModified?.getTime() ?? 0, version: answer.ETag ?? '', body, range: sent };
    } catch (error) {
      if (statusOf(error) === 404) throw new ObjectNotFoundError(key);
      if (statusOf(error) === 416 && range) throw new RangeNotSatisfiableError((await this.stat(key))?.size ?? 0);
      throw error;
    }
  }

  async readBytes(key: string): Promise<Buffer> {
    return buffer((await this.read(key)).body);
  }

  async write(key: string, body: Buffer | string | Readable, options: WriteOptions = {}): Promise<void> {
    const target = {
      Bucket: this.settings.bucket,
      Key: this.objectKey(key),
      ContentType: options.contentType ?? contentTypeOf(key),
      CacheControl: cacheControlOf(key),
    };
    if (typeof body === 'string' || Buffer.isBuffer(body)) {
      await this.client.send(new (aws().s3.PutObjectCommand)({ ...target, Body: body }));
      return;
    }
    // A multipart upload when the stream is longer than one part (a single PUT otherwise); the server publishes
    // the object only once every part is in, and lib-storage aborts the upload when a part fails for good.
    await new (aws().storage.Upload)({ client: this.client, params: { ...target, Body: body }, partSize: PART_BYTES, queueSize: PARTS_IN_FLIGHT, leavePartsOnError: false }).done();
  }

  async writeFile(key: string, file: string, options: WriteOptions = {}): Promise<void> {
    const { size } = await fs.stat(file);
    // Small files in one PUT with a known length; larger ones streamed in parts.
    await this.write(key, size <= PART_BYTES ? await fs.readFile(file) : createReadStream(file), options);
  }

  async download(key: string, file: string): Promise<void> {
    const { body } = await this.read(key);
    await writeAtomic(file, (temporary) => pipeline(body, createWriteStream(temporary, { flags: 'wx' }))).catch((error: unknown) => {
      body.destroy();
      throw error;
    });
  }

  async *list(prefix: string): AsyncIterable<StoredObject> {
    const skip = this.settings.prefix.length;
    const pages = aws().s3.paginateListObjectsV2({ client: this.client }, { Bucket: this.settings.bucket, Prefix: `${this.settings.prefix}${prefix}` });
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key.slice(skip), size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0, version: object.ETag ?? '' };
      }
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new (aws().s3.DeleteObjectCommand)({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
  }

  async removeFolder(prefix: string): Promise<number> {
    checkPrefix(prefix);
    const keys: string[] = [];
    for await (const object of this.list(prefix)) keys.push(object.key);
    await this.removeKeys(keys);
    return keys.length;
  }

  async publishFolder(folder: string, prefix: string): Promise<void> {
    checkPrefix(prefix);
    const files = (await fs.readdir(folder, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
    // Segments and images first (a few at a time), then the variant playlists, then the master.
    for (const stage of [0, 1, 2]) {
      const batch = files.filter((relative) => publishOrder(relative) === stage);
      for (let i = 0; i < batch.length; i += 4) {
        await Promise.all(batch.slice(i, i + 4).map((relative) => this.writeFile(`${prefix}${relative}`, path.join(folder, relative))));
      }
    }
    // What the folder no longer has goes last, once nothing published names it.
    const kept = new Set(files.map((relative) => `${prefix}${relative}`));
    const stale: string[] = [];
    for await (const object of this.list(prefix)) if (!kept.has(object.key)) stale.push(object.key);
    await this.removeKeys(stale);
  }

  private async removeKeys(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      const answer = await this.client.send(
        new (aws().s3.DeleteObjectsCommand)({ Bucket: this.settings.bucket, Delete: { Objects: batch.map((key) => ({ Key: this.objectKey(key) })), Quiet: true } }),
      );
      if (answer.Errors?.length) throw new Error(`The bucket kept ${answer.Errors.length} objects it was asked to remove: ${answer.Errors[0].Key} (${answer.Errors[0].Code})`);
    }
  }
}

/** The HTTP status of an SDK error (404 for NoSuchKey, NotFound, NoSuchBucket), or undefined for another fault. */
function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}
