import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthUser, type RoleId, ROLES } from '../decorators/auth.decorators';

/** Enforces `@Roles(...)`; runs after the JWT guard, so a user here is authenticated. */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride<RoleId[] | undefined>(ROLES, [context.getHandler(), context.getClass()]);
    if (!roles?.length) return true;
    const user = context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
    if (!user) throw new UnauthorizedException('Authentication required');
    if (!user.roleId || !roles.includes(user.roleId)) throw new ForbiddenException('You are not allowed to do this');
    return true;
  }
}
