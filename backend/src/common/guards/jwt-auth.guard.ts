import { ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { AuthUser, IS_PUBLIC } from '../decorators/auth.decorators';
import { isDependencyDown } from '../errors/dependency-errors';
import { hasSessionCookie } from '../http/session-cookie';

/**
 * The one global authentication guard: every route needs a valid token unless it is `@Public()`. On public
 * routes a valid token still identifies the caller and a missing or bad one means "anonymous".
 */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    // Most public traffic is anonymous: skip passport altogether when there is no token to read.
    if (this.isPublic(context) && !hasToken(context.switchToHttp().getRequest<Request>())) return true;
    try {
      return (await super.canActivate(context)) as boolean;
    } catch (error) {
      // The database could not say who the token is. A public read does not depend on it: answer it as for a
      // guest (it may be served from memory). Anything else answers 503: not "anonymous" (a member's like would
      // become a guest's) and not 401 (the client would drop a good session).
      const down = isDependencyDown(error);
      if (this.isPublic(context) && (!down || context.switchToHttp().getRequest<Request>().method === 'GET')) return true;
      throw error;
    }
  }

  override handleRequest<T = AuthUser>(err: unknown, user: T | false): T {
    if (isDependencyDown(err)) throw err;
    if (err || !user) throw new UnauthorizedException('Authentication required');
    return user;
  }

  private isPublic(context: ExecutionContext): boolean {
    return this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]) ?? false;
  }
}

function hasToken(req: Request): boolean {
  return Boolean(req.headers.authorization) || hasSessionCookie(req);
}
