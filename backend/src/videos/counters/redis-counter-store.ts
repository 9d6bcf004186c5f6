import { randomUUID } from 'node:crypto';
import type { ChainableCommander, default as Redis } from 'ioredis';
import { createRedisConnection } from '../../common/redis/redis-connection';
import { BatchWrite, CounterDelta, CounterField, CounterStore, emptyDelta, PendingCounts } from './counter-store';

const FIELDS: CounterField[] = ['views', 'likes', 'trending'];

/** The mark and the count in one step (a script runs whole or not at all): KEYS mark, pending hash; ARGV ttl, field. */
const COUNT_ONCE = `if redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then redis.call('HINCRBY', KEYS[2], ARGV[2], 1) return 1 end return 0`;

/**
 * The shared store for several API processes. Counts live in one hash (`{prefix}pending`, fields
 * `{videoId}:{field}`); a flush RENAMEs it to a batch key of its own, which is atomic, so no increment can
 * fall between reading and deleting (the gap where PeerTube loses views). Batches are listed in a set until
 * their counts are in the database; a batch left by a process that died is picked up by the next flush.
 */
export class RedisCounterStore implements CounterStore {
  private readonly redis: Redis;
  private readonly pendingKey: string;
  private readonly batchesKey: string;

  constructor(url: string, private readonly prefix = 'counters:') {
    // Fails fast while Redis is down, so that the fallback store takes the event.
    this.redis = createRedisConnection(url);
    this.pendingKey = `${prefix}pending`;
    this.batchesKey = `${prefix}batches`;
  }

  async markOnce(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}mark:${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  async unmark(key: string): Promise<void> {
    await this.redis.del(`${this.prefix}mark:${key}`);
  }

  async increment(videoId: number, field: CounterField, by = 1): Promise<void> {
    await this.redis.hincrby(this.pendingKey, `${videoId}:${field}`, by);
  }

  async countOnce(key: string, ttlMs: number, videoId: number, field: CounterField): Promise<boolean> {
    const counted = await this.redis.eval(COUNT_ONCE, 2, `${this.prefix}mark:${key}`, this.pendingKey, ttlMs, `${videoId}:${field}`);
    return counted === 1;
  }

  /** Videos with counts in the shared hash (two fields each at most: views and likes). */
  async buffered(): Promise<number> {
    const fields = await this.redis.hkeys(this.pendingKey);
    return new Set(fields.map((field) => field.slice(0, field.indexOf(':')))).size;
  }

  async pending(videoIds: number[]): Promise<PendingCounts> {
    const result: PendingCounts = new Map();
    if (videoIds.length === 0) return result;
    const keys = [this.pendingKey, ...(await this.redis.smembers(this.batchesKey))];
    const fields = videoIds.flatMap((id) => [`${id}:views`, `${id}:likes`]);
    const pipeline = this.redis.pipeline();
    for (const key of keys) pipeline.hmget(key, ...fields);
    // A connection lost between the two round trips must reach the fallback as Redis being down, not as a
    // TypeError of reading a missing reply.
    const replies = await execOrThrow(pipeline);
    videoIds.forEach((id, i) => {
      let views = 0;
      let likes = 0;
      for (const [, values] of replies) {
        const v = values as (string | null)[];
        views += Number(v[2 * i] ?? 0);
        likes += Number(v[2 * i + 1] ?? 0);
      }
      if (views || likes) result.set(id, { views, likes });
    });
    return result;
  }

  async drain(write: BatchWrite, written?: (deltas: CounterDelta[]) => void): Promise<number> {
    const batch = `${this.prefix}batch:${randomUUID()}`;
    // Claim and list the batch before the RENAME, so that reads keep seeing the counts while they move and no
    // other process takes them; RENAME fails when nothing is pending.
    await this.claim(batch);
    await this.redis.sadd(this.batchesKey, batch);
    try {
      await this.redis.rename(this.pendingKey, batch);
    } catch {
      await execOrThrow(this.redis.multi().srem(this.batchesKey, batch).del(`${batch}:claim`));
    }
    let count = 0;
    for (const key of await this.redis.smembers(this.batchesKey)) {
      // Ours, or one left by a process that died (its claim expired); never one another process is writing.
      if (key !== batch && !(await this.claim(key))) continue;
      const deltas = parse(await this.redis.hgetall(key));
      try {
        // The batch's key is its id: a batch written again (its removal below failed, or its process died before
        // it) changes nothing in the database.
        if (deltas.length) await write(deltas, key);
      } catch (error) {
        await this.redis.del(`${key}:claim`); // stays listed: the next flush retries it
        throw error;
      }
      count += deltas.length;
      // Should this fail, the batch stays listed and claimed, and is written again once the claim has expired.
      await execOrThrow(this.redis.multi().srem(this.batchesKey, key).del(key, `${key}:claim`));
      if (deltas.length) written?.(deltas);
    }
    return count;
  }

  private async claim(batch: string): Promise<boolean> {
    return (await this.redis.set(`${batch}:claim`, '1', 'PX', 60_000, 'NX')) === 'OK';
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Test helper: forgets everything under the prefix. */
  async reset(): Promise<void> {
    const keys = await this.redis.keys(`${this.prefix}*`);
    if (keys.length) await this.redis.del(...keys);
  }
}

function parse(raw: Record<string, string>): CounterDelta[] {
  const byVideo = new Map<number, CounterDelta>();
  for (const [field, value] of Object.entries(raw)) {
    const [id, name] = field.split(':');
    const videoId = Number(id);
    if (!Number.isInteger(videoId) || !FIELDS.includes(name as CounterField)) continue;
    let d = byVideo.get(videoId);
    if (!d) byVideo.set(videoId, (d = emptyDelta(videoId)));
    d[name as CounterField] += Number(value);
  }
  return [...byVideo.values()];
}

/**
 * A pipeline's or a transaction's replies, or the first command's error: ioredis resolves `exec()` with each
 * command's failure in its place (a connection lost midway included), where the caller needs it thrown.
 */
async function execOrThrow(commands: ChainableCommander): Promise<[error: Error | null, result: unknown][]> {
  const replies = await commands.exec();
  if (!replies) throw new Error('Redis discarded the transaction');
  const failed = replies.find(([error]) => error);
  if (failed) throw failed[0];
  return replies;
}
