import { Body, Controller, Get, HttpCode, HttpStatus, Inject, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { CookieOptions, Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AuthRateLimit, CurrentUser, Public } from '../common/decorators/auth.decorators';
import { clientNetworkOf } from '../common/utils/client-ip';
import type { AuthUser } from '../common/decorators/auth.decorators';
import { AuthErrorCode } from './auth-errors';
import { AuthService } from './auth.service';
import { LoginDto, MeDto, RegisterDto, SessionDto, UpdateProfileDto } from './dto/auth.dto';
import { sessionCookieName, sessionCookieOptions } from '../common/http/session-cookie';
import { toUserDto } from './user.mapper';
import { ApiError, ApiMember, ApiPublic } from '../openapi/openapi.decorators';

const HASHING_BUSY_ANSWER = 'Too many passwords being hashed at once: try again shortly';

@ApiTags('auth')
@ApiPublic()
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Public()
  @AuthRateLimit()
  @Post('register')
  @ApiOperation({ summary: 'Create an account and sign in' })
  @ApiResponse({ status: 201, type: SessionDto })
  @ApiError(
    400,
    'A field out of its limits (password: 10 to 128 characters); or errorCode WEAK_PASSWORD, with the rule in `error`: ' +
      'a common password, or one that contains the e-mail address’s name or the display name',
    [AuthErrorCode.WeakPassword],
  )
  @ApiError(409, 'An account with this email already exists')
  @ApiError(429, 'Too many registrations of taken addresses from this network')
  @ApiError(503, HASHING_BUSY_ANSWER)
  async register(@Body() dto: RegisterDto, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SessionDto> {
    return this.withCookie(res, await this.auth.register(dto, clientNetworkOf(req)));
  }

  @Public()
  @AuthRateLimit()
  @Post('login')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Sign in with email and password' })
  @ApiResponse({ status: 200, type: SessionDto })
  @ApiError(401, 'Invalid email or password (the same text for an unknown email)')
  @ApiError(429, 'Too many failed sign-ins for this account')
  @ApiError(503, HASHING_BUSY_ANSWER)
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
  @ApiOperation({ summary: 'Sign out: end the session and clear the cookie' })
  @ApiResponse({ status: 204, description: 'Signed out (also without a valid token); the cookie is cleared' })
  async logout(@CurrentUser() user: AuthUser | null, @Res({ passthrough: true }) res: Response): Promise<void> {
    if (user?.sessionId) await this.auth.endSession(user.sessionId);
    res.clearCookie(sessionCookieName(this.config), this.cookieOptions());
    res.setHeader('Clear-Site-Data', '"cache", "cookies"');
  }

  @Get('me')
  @ApiMember()
  @ApiOperation({ summary: 'The signed-in user' })
  @ApiResponse({ status: 200, type: MeDto })
  me(@CurrentUser() user: AuthUser): MeDto {
    return { user: toUserDto(user) };
  }

  @Patch('me')
  @ApiMember()
  @ApiOperation({ summary: 'Set the display name (and complete a new profile)' })
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
