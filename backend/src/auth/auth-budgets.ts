import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { createHmac } from 'node:crypto';
import { OverBudgetError } from '../common/errors/domain-errors';
import { REDIS_CONNECTION } from '../common/redis/redis.module';
import { WindowCounts } from '../common/redis/window-counts';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/** Failed sign-ins one account takes in LOGIN_FAILURE_WINDOW_MS, from all addresses together. */
export const LOGIN_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Registrations one network (an IPv4 address, an IPv6 /64) may make that find the address taken, per hour. */
export const TAKEN_EMAILS_PER_NETWORK = 5;
export const TAKEN_EMAIL_WINDOW_MS = 60 * 60_000;

export const ACCOUNT_LOCKED = 'Too many failed sign-ins for this account, please try again later';
export const TOO_MANY_TAKEN = 'Too many registrations of existing accounts from your network, please try again later';

/**
 * The budgets of the auth routes beyond the per-address rate limit:
 *
 * - failed sign-ins per account (whatever the address, so that guessing one account's password from many
 *   addresses is as slow as from one): each attempt takes a slot before its password is hashed, so however many
 *   arrive at once, at most LOGIN_FAILURES_PER_ACCOUNT passwords are verified in the window; past it the account's
 *   sign-ins answer 429 until the window ends, right password or not. A successful sign-in starts the count over.
 *   Unknown addresses are counted the same way, so the answer says nothing about whether an account exists.
 * - registrations that find the e-mail address taken (the contract's 409, which says that an account exists)
 *   per network: at TAKEN_EMAILS_PER_NETWORK an hour, registrations from that network answer 429, so that
 *   probing a list of addresses is slow; registrations of new addresses never count.
 *
 * Keys are keyed hashes of the e-mail address or the network, never the raw values. `RATE_LIMIT_AUTH=0`, which
 * turns the sign-in limits off (a test run, say, signing in hundreds of times from one address), turns these off
 * too, as it does the global budget.
 */
@Injectable()
export class AuthBudgets {
  private readonly counts: WindowCounts;
  private readonly secret: string;
  private readonly enabled: boolean;

  constructor(@Inject(REDIS_CONNECTION) redis: Redis | null, @Inject(APP_CONFIG) config: AppConfig) {
    this.counts = new WindowCounts(redis, `${config.redisPrefix}auth-budgets:`);
    this.secret = createHmac('sha256', config.jwtSecret).update('auth-budgets').digest('hex');
    this.enabled = config.rateLimits.auth > 0;
  }

  /**
   * Takes one of the account's failed sign-ins before its password is checked, in one atomic step (an INCR in
   * Redis): refuses with 429 when none is left. Checking first and counting after the hash let a burst through:
   * 40 wrong passwords sent at once all read the count before any was added, and 34 were verified (issue #29).
   * A wrong password keeps the slot it took; a right one starts the count over (`signedIn`).
   */
  async reserveAttempt(email: string): Promise<void> {
    if (!this.enabled) return;
    const { count, msLeft } = await this.counts.add(this.accountKey(email), LOGIN_FAILURE_WINDOW_MS);
    if (count > LOGIN_FAILURES_PER_ACCOUNT) throw new OverBudgetError(ACCOUNT_LOCKED, seconds(msLeft));
  }

  /** The password was right: the account's count starts over. */
  async signedIn(email: string): Promise<void> {
    if (this.enabled) await this.counts.clear(this.accountKey(email));
  }

  /** Refuses with 429 while the network has used up its registrations of taken addresses. */
  async checkRegistration(network: string): Promise<void> {
    if (!this.enabled) return;
    const { count, msLeft } = await this.counts.read(this.networkKey(network));
    if (count >= TAKEN_EMAILS_PER_NETWORK) throw new OverBudgetError(TOO_MANY_TAKEN, seconds(msLeft));
  }

  async emailTaken(network: string): Promise<void> {
    if (this.enabled) await this.counts.add(this.networkKey(network), TAKEN_EMAIL_WINDOW_MS);
  }

  private accountKey(email: string): string {
    return `account:${this.hash(email.trim().toLowerCase())}`;
  }

  private networkKey(network: string): string {
    return `taken:${this.hash(network)}`;
  }

  private hash(value: string): string {
    return createHmac('sha256', this.secret).update(value).digest('base64url').slice(0, 22);
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
