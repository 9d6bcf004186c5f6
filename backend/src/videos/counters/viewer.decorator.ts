import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { clientIp } from '../../common/utils/client-ip';

export interface ClientInfo {
  /** The address as TRUST_PROXY sees it. */
  ip: string;
  userAgent: string;
}

/** The caller's address and user agent, for counting unique viewers. */
export const clientInfoOf = (req: Request): ClientInfo => ({ ip: clientIp(req), userAgent: String(req.headers['user-agent'] ?? '').slice(0, 512) });

/** The caller's address and user agent, for counting unique viewers. */
export const Client = createParamDecorator((_data: unknown, ctx: ExecutionContext): ClientInfo => clientInfoOf(ctx.switchToHttp().getRequest<Request>()));
