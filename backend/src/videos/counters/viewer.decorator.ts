import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { clientNetworkOf } from '../../common/utils/client-ip';

export interface ClientInfo {
  /** The caller's network (an IPv4 address, an IPv6 /64) as TRUST_PROXY lets it be seen: who a guest viewer is. */
  network: string;
}

/** The caller's network, for counting unique viewers (`CountersService.viewerOf`). */
export const clientInfoOf = (req: Request): ClientInfo => ({ network: clientNetworkOf(req) });

/** The caller's network, for counting unique viewers. */
export const Client = createParamDecorator((_data: unknown, ctx: ExecutionContext): ClientInfo => clientInfoOf(ctx.switchToHttp().getRequest<Request>()));
