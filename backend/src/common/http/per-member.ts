import { type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';

const PER_MEMBER = 'http:per-member';

/**
 * Marks a `@PublicCache()` GET whose answer a signed-in member's own settings change (their hidden topics): for a
 * member it is `private, no-store`, and kept for outages under the member's own key (StaleReadsInterceptor).
 */
export const PerMember = () => SetMetadata(PER_MEMBER, true);

/** The handler answers a signed-in member with what is theirs (`@PerMember()`), and this request is one's. */
export const isMemberAnswer = (reflector: Reflector, context: ExecutionContext): boolean =>
  (reflector.getAllAndOverride<boolean>(PER_MEMBER, [context.getHandler(), context.getClass()]) ?? false) &&
  Boolean(context.switchToHttp().getRequest<{ user?: unknown }>().user);
