import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerException, ThrottlerGuard, ThrottlerLimitDetail, ThrottlerRequest } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { AUTH_RATE_LIMIT } from '../decorators/auth.decorators';

export const AUTH_THROTTLER = 'auth';
export const WRITE_THROTTLER = 'write';

/**
 * Per-address, per-minute limits on writes: `@AuthRateLimit()` routes (register, login) count against
 * RATE_LIMIT_AUTH, every other write against RATE_LIMIT_WRITE; reads are not limited here. A limit of 0 is off.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    const method = context.switchToHttp().getRequest<Request>().method;
    return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const isAuthRoute = this.reflector.getAllAndOverride<boolean>(AUTH_RATE_LIMIT, [
      props.context.getHandler(),
      props.context.getClass(),
    ]) ?? false;
    const applies = props.throttler.name === AUTH_THROTTLER ? isAuthRoute : !isAuthRoute;
    if (!applies || props.limit <= 0) return true;
    return super.handleRequest(props);
  }

  /** One budget per address and limit, shared by every route it covers. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(Math.max(1, detail.timeToBlockExpire)));
    throw new ThrottlerException('Too many requests, please try again later');
  }
}
