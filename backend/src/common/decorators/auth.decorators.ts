import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
/** A signed-in account's role (the users table's role_id, which the auth module owns). */
export type RoleId = 'member' | 'admin';

export const IS_PUBLIC = 'isPublic';
export const ROLES = 'roles';
export const AUTH_RATE_LIMIT = 'authRateLimit';

/** The user as the guards see it: loaded from the database on every authenticated request. */
export interface AuthUser {
  id: string;
  email: string;
  displayName: string;
  roleId: RoleId | null;
  historyPaused: boolean;
  /** The session the request's token belongs to. */
  sessionId?: string;
}

/** Anyone may call the route; a valid token still identifies the caller (`@CurrentUser()` may be null). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/** A signed-in member only (401 without a valid token), on a route of a controller that is otherwise `@Public()`. */
export const MembersOnly = () => SetMetadata(IS_PUBLIC, false);

/** Only these roles may call the route (401 without a token, 403 for another role). */
export const Roles = (...roles: RoleId[]) => SetMetadata(ROLES, roles);

/** The route counts against RATE_LIMIT_AUTH instead of RATE_LIMIT_WRITE. */
export const AuthRateLimit = () => SetMetadata(AUTH_RATE_LIMIT, true);

export const CurrentUser = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthUser | null => ctx.switchToHttp().getRequest<{ user?: AuthUser }>().user ?? null,
);
