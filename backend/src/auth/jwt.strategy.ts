import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { ExtractJwt, Strategy } from 'passport-jwt';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { AuthService, isSessionPayload, JwtPayload } from './auth.service';
import { fromCookie } from '../common/http/session-cookie';
import { jwtKey } from './jwt-key';

export const JWT_ALGORITHM = 'HS256';

/** Bearer header first, else the httpOnly cookie; HS256 only, so a token cannot pick its own algorithm. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly auth: AuthService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([ExtractJwt.fromAuthHeaderAsBearerToken(), (req: Request) => fromCookie(req, config)]),
      // A key object (jwt-key.ts); passport-jwt hands it to jsonwebtoken as it is, though its types name only
      // strings and buffers.
      secretOrKey: jwtKey(config.jwtSecret) as unknown as Buffer,
      algorithms: [JWT_ALGORITHM],
      ignoreExpiration: false,
    });
  }

  async validate(payload: JwtPayload & { exp?: unknown }): Promise<AuthUser | false> {
    // passport-jwt checks `exp` only when a token has one: a token that never expires is refused here.
    // A token without its session (issued before sessions existed) is refused as well.
    if (!isSessionPayload(payload)) return false;
    return (await this.auth.findSessionUser(payload.sub, payload.sid)) ?? false;
  }
}
