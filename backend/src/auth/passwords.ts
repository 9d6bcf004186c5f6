import * as argon2 from 'argon2';
import pLimit from 'p-limit';
import { BusyError } from '../common/errors/domain-errors';

/**
 * Hashes computed at once. argon2 runs on libuv's thread pool (four threads), the one that also reads files
 * for media and pages: a crowd of logins holding all four made a page wait 4 s and an HLS segment 3 s. Two at a
 * time leave two threads for files, and on this 2-core machine two hashes already use both cores.
 */
export const HASH_CONCURRENCY = 2;
/**
 * Hashes waiting their turn at most. Past it a login or registration answers 503 with Retry-After at once,
 * rather than queueing work that would be answered after its client has given up (a hash takes 0.15-0.3 s
 * on this 2-core machine: a full line is a few seconds of waiting).
 */
export const HASH_QUEUE_MAX = 32;
export const HASHING_BUSY = 'Too many sign-ins at once, please try again in a few seconds';

const limit = pLimit(HASH_CONCURRENCY);

/** Runs `hash` in turn, or refuses at once when the line is full. */
function inTurn<T>(hash: () => Promise<T>): Promise<T> {
  if (limit.pendingCount >= HASH_QUEUE_MAX) return Promise.reject(new BusyError(HASHING_BUSY));
  return limit(hash);
}

/** argon2id with the library's defaults (64 MiB, t=3, p=4), as OWASP recommends. */
export const PASSWORD_HASH = { type: argon2.argon2id, memoryCost: 65_536, timeCost: 3, parallelism: 4 } as const;

/** The cost the test suite makes hashes at (below). */
export const TEST_PASSWORD_HASH = { type: argon2.argon2id, memoryCost: 1_024, timeCost: 1, parallelism: 1 } as const;
type HashCost = typeof PASSWORD_HASH | typeof TEST_PASSWORD_HASH;

/**
 * The cost new hashes are made at. Only the test suite lowers it (`test/helpers/setup.ts`, docs/testing.md ›
 * "How long it takes"): its hundreds of registrations would otherwise spend minutes of both cores on argon2. A
 * hash names its own cost, so verifying is the same code at either; the tests of the hashing line itself run at
 * the production cost (`test/auth-abuse.e2e-spec.ts`).
 */
let hashCost: HashCost = PASSWORD_HASH;
export function setPasswordHashCost(cost: HashCost): void {
  hashCost = cost;
  dummyHash = undefined;
}

export function hashPassword(password: string): Promise<string> {
  return inTurn(() => argon2.hash(password, hashCost));
}

export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return inTurn(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}

/** Verified against for unknown emails, so that they take as long as a wrong password. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= argon2.hash('not-a-real-password-for-timing-only', hashCost);
  return dummyHash;
}

/** Hashes running and waiting now. */
export const hashingLoad = () => ({ running: limit.activeCount, waiting: limit.pendingCount });
