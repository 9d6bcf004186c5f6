import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiBadRequestResponse, ApiBearerAuth, ApiConflictResponse, ApiTags, ApiResponse } from '@nestjs/swagger';
import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AuthRateLimit, CurrentUser, Public } from '../common/decorators/auth.decorators';
import { clientNetworkOf } from '../common/utils/client-ip';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { AuthService } from './auth.service';
import { LoginDto, MeDto, RegisterDto, SessionDto, UpdateProfileDto } from './dto/auth.dto';
import { sessionCookieName, sessionCookieOptions } from '../common/http/session-cookie';
import { toUserDto } from './user.mapper';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @AuthRateLimit()
  @Post('register')
  @ApiResponse({ status: 201, type: SessionDto })
  @ApiBadRequestResponse({
    description:
      'A field out of its limits (password: 10 to 128 characters); or errorCode WEAK_PASSWORD, with the rule in `error`: ' +
      'a common password, or one that contains the e-mail address’s name or the display name',
  })
  @ApiConflictResponse({ description: 'An account with this email already exists' })
  async register(@Body() dto: RegisterDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SessionDto> {
    return this.withCookie(res, await this.auth.register(dto, clientNetworkOf(req)));
  }

  @Public()
  @AuthRateLimit()
  @Post('login')
  @HttpCode(HttpStatus.OK)
  @ApiResponse({ status: 200, type: SessionDto })
  async login(@Body() dto: LoginDto, @Res({ passthrough: true }) res: Response): Promise<SessionDto> {
    return this.withCookie(res, await this.auth.login(dto));
  }

  /**
   * Ends the session of the token sent (its token is refused from now on, in every process), drops the cookie
   * and tells the browser to clear this site's cookies and cache. Without a valid token there is no session to
   * end: the cookie is dropped all the same.
   */
  @Public()
  @Post('logout')
  @HttpCode(HttpStatus.NO_CONTENT)
  async logout(@CurrentUser() user: AuthUser | null, @Res({ passthrough: true }) res: Response): Promise<void> {
    if (user?.sessionId) await this.auth.endSession(user.sessionId);
    res.clearCookie(sessionCookieName(this.config), this.cookieOptions());
    res.setHeader('Clear-Site-Data', '"cache", "cookies"');
  }

  @ApiBearerAuth()
  @Get('me')
  @ApiResponse({ status: 200, type: MeDto })
  me(@CurrentUser() user: AuthUser): MeDto {
    return { user: toUserDto(user) };
  }

  @ApiBearerAuth()
  @Patch('me')
  @ApiResponse({ status: 200, type: MeDto })
  async updateMe(@CurrentUser() user: AuthUser, @Body() dto: UpdateProfileDto): Promise<MeDto> {
    return { user: await this.auth.updateProfile(user.id, dto.displayName) };
  }

  private withCookie(res: Response, session: SessionDto): SessionDto {
    res.cookie(sessionCookieName(this.config), session.accessToken, { ...this.cookieOptions(), maxAge: this.config.jwtTtlSeconds * 1000 });
    return session;
  }

  private cookieOptions(): CookieOptions {
    return sessionCookieOptions(this.config);
  }
}
