import { ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerException, ThrottlerGuard, type ThrottlerLimitDetail,
  type ThrottlerModuleOptions, type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { createHmac } from 'node:crypto';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { AUTH_RATE_LIMIT } from '../decorators/auth.decorators';
import { clientNetworkOf } from '../utils/client-ip';

export const AUTH_THROTTLER = 'auth';
export const AUTH_GLOBAL_THROTTLER = 'auth-global';
export const WRITE_THROTTLER = 'write';

/**
 * Per-minute limits on writes: `@AuthRateLimit()` routes (register, login) count against RATE_LIMIT_AUTH per
 * network and RATE_LIMIT_AUTH_GLOBAL from everyone together, every other write against RATE_LIMIT_WRITE per
 * network; reads are not limited here. A limit of 0 is off. A network is an IPv4 address or an IPv6 /64
 * (`clientNetwork`), and it is counted under a keyed hash: the raw address is never a key (in Redis, say).
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly keySecret: string;
  private readonly authGlobalLimit: number;
  private readonly trackerOf = (req: Record<string, unknown>) => this.getTracker(req);
  private readonly keyOf = (context: ExecutionContext, tracker: string, name: string) => this.generateKey(context, tracker, name);

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super(options, storage, reflector);
    this.keySecret = createHmac('sha256', config.jwtSecret).update('rate-limits').digest('hex');
    this.authGlobalLimit = config.rateLimits.authGlobal;
  }

  /**
   * The library's loop reads six route metadata keys and awaits three values per throttler for every write,
   * for per-route overrides (`@Throttle`, `@SkipThrottle`) this API does not use: here a write reads one key (auth
   * route or not) and counts against its throttler's budget, then, on auth routes, against everyone's.
   */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const method = context.switchToHttp().getRequest<Request>().method;
    if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return true;
    const isAuthRoute = this.reflector.getAllAndOverride<boolean>(AUTH_RATE_LIMIT, [context.getHandler(), context.getClass()]) ?? false;
    const throttler = this.throttlers.find((t) => t.name === (isAuthRoute ? AUTH_THROTTLER : WRITE_THROTTLER));
    if (!throttler) return true;
    const limit = Number(throttler.limit);
    const ttl = Number(throttler.ttl);
    // The network's budget first (a request it refuses does not count against everyone's).
    if (limit > 0) {
      await this.handleRequest({
        context, limit, ttl, throttler, blockDuration: ttl,
        getTracker: this.trackerOf, generateKey: this.keyOf,
      });
    }
    if (isAuthRoute && this.authGlobalLimit > 0) {
      const all = await this.storageService.increment(`${AUTH_GLOBAL_THROTTLER}:all`, ttl, this.authGlobalLimit, ttl, AUTH_GLOBAL_THROTTLER);
      if (all.isBlocked) {
        await this.throwThrottlingException(context, {
          ...all, limit: this.authGlobalLimit, ttl, key: `${AUTH_GLOBAL_THROTTLER}:all`, tracker: 'all',
        });
      }
    }
    return true;
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    return createHmac('sha256', this.keySecret).update(clientNetworkOf(req as unknown as Request)).digest('base64url').slice(0, 22);
  }

  /** One budget per network and limit, shared by every route it covers. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(Math.max(1, detail.timeToBlockExpire)));
    throw new ThrottlerException('Too many requests, please try again later');
  }
}
