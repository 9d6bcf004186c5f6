import { createHmac } from 'node:crypto';
import { OverBudgetError } from '../common/errors/domain-errors';
import type { RoleId } from '../auth/user.entity';

/** The window every removal-request budget counts over. */
export const REMOVAL_BUDGET_WINDOW_MS = 60 * 60 * 1000;

/**
 * How many removal requests may be filed per window. Anonymous senders are counted by their network (an IPv4
 * address, an IPv6 /64); members by their account, and all members behind one network together, so that a
 * farm of fresh accounts on one line gains little. Admins are not counted.
 */
export const REMOVAL_BUDGETS = {
  anonymous: 3,
  member: 10,
  membersPerNetwork: 30,
} as const;

/** The rate-limit storage's name for these counters (with REDIS_URL, keys `{REDIS_PREFIX}ratelimit:removal-requests:…`). */
export const REMOVAL_BUDGET_NAME = 'removal-requests';

/** Who files a request, as the budget and the queue's ranking see them. */
export interface RemovalSender {
  /** The client's network (`clientNetwork`): an IPv4 address or an IPv6 /64. */
  network: string;
  /** The signed-in caller, if any. */
  user?: { id: string; roleId: RoleId | null } | null;
}

export type RemovalBudgetKind = keyof typeof REMOVAL_BUDGETS;

export interface RemovalBudget {
  kind: RemovalBudgetKind;
  /** The storage key: one budget per key, shared by every process when the storage is Redis. */
  key: string;
  limit: number;
}

/**
 * The budgets one filing counts against, each of which must have room; none for an admin. `senderKey` is the
 * sender's `reporterKey`: no address is ever a key of the storage (in Redis, say).
 */
export function removalBudgetsFor(senderKey: string, user: RemovalSender['user']): RemovalBudget[] {
  if (user?.roleId === 'admin') return [];
  if (!user) return [{ kind: 'anonymous', key: `anonymous:${senderKey}`, limit: REMOVAL_BUDGETS.anonymous }];
  return [
    { kind: 'member', key: `member:${user.id}`, limit: REMOVAL_BUDGETS.member },
    { kind: 'membersPerNetwork', key: `members:${senderKey}`, limit: REMOVAL_BUDGETS.membersPerNetwork },
  ];
}

/**
 * The sender as the queue tells senders apart (distinct reporters, whose turn a request is): a keyed hash of the
 * network, 16 hex digits. Keyed so that a stored key cannot be turned back into an address by trying all four
 * billion IPv4 ones; by network rather than account so that many accounts on one line count as one sender.
 */
export function reporterKey(network: string, secret: string): string {
  return createHmac('sha256', secret).update(`removal-reporter:${network}`).digest('hex').slice(0, 16);
}

/** Budget spent: the sender may file again in `retryAfterSeconds` (429 with Retry-After). */
export class RemovalBudgetExceededError extends OverBudgetError {
  constructor(
    readonly kind: RemovalBudgetKind,
    retryAfterSeconds: number,
  ) {
    super(`${BUDGET_SPENT[kind]}. Try again in ${minutes(retryAfterSeconds)}${kind === 'anonymous' ? ', or sign in to send more' : ''}`, Math.max(1, retryAfterSeconds));
  }
}

const BUDGET_SPENT: Record<RemovalBudgetKind, string> = {
  anonymous: `Too many removal requests from your address: at most ${REMOVAL_BUDGETS.anonymous} an hour without signing in`,
  member: `Too many removal requests from your account: at most ${REMOVAL_BUDGETS.member} an hour`,
  membersPerNetwork: `Too many removal requests from your address: at most ${REMOVAL_BUDGETS.membersPerNetwork} an hour from all accounts on it`,
};

function minutes(seconds: number): string {
  const n = Math.max(1, Math.ceil(seconds / 60));
  return n === 1 ? '1 minute' : `${n} minutes`;
}
