import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { clientIp } from '../../common/utils/client-ip';

export interface ClientInfo {
  /** The address as TRUST_PROXY sees it. */
  ip: string;
}

/** The caller's address, for counting unique viewers (by its network: `CountersService.viewerOf`). */
export const clientInfoOf = (req: Request): ClientInfo => ({ ip: clientIp(req) });

/** The caller's address, for counting unique viewers. */
export const Client = createParamDecorator((_data: unknown, ctx: ExecutionContext): ClientInfo => clientInfoOf(ctx.switchToHttp().getRequest<Request>()));
