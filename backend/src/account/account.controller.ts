import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Inject, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AuthErrorCode } from '../auth/auth-errors';
import { sessionCookieName, sessionCookieOptions } from '../common/http/session-cookie';
import { AuthRateLimit, CurrentUser } from '../common/decorators/auth.decorators';
import type { AuthUser } from '../common/decorators/auth.decorators';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { siteOf } from '../common/http/site-identity';
import { slugify } from '@hunktube/shared';
import { AccountService } from './account.service';
import { AccountExportDto, DeleteAccountDto } from './dto/account.dto';
import { ApiError, ApiMember } from '../openapi/openapi.decorators';

/** A member's data to take away, and the account to leave (docs/decisions.md › "Export and delete"). Signed in only. */
@ApiTags('account')
@ApiMember()
@Controller('me')
export class AccountController {
  constructor(
    private readonly account: AccountService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('export')
  @ApiOperation({ summary: 'Everything the site keeps about the caller, as a JSON file' })
  @ApiOkResponse({ type: AccountExportDto, description: 'A JSON file (Content-Disposition: attachment)' })
  async export(@CurrentUser() user: AuthUser, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<AccountExportDto> {
    const site = siteOf(req, this.config);
    const data = await this.account.export(user, site);
    const name = `${slugify(site.name) || 'account'}-data-${data.exported_at.slice(0, 10)}.json`;
    res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
    return data;
  }

  /**
   * Deletes the account with everything personal at once, then signs this browser out as logout does and asks
   * it to forget this site's storage too (what it kept: positions, likes given here).
   */
  @Delete('account')
  @AuthRateLimit()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Delete the caller’s account and sign out' })
  @ApiNoContentResponse({ description: 'Deleted; the cookie is cleared' })
  @ApiError(400, 'No password, or other fields')
  @ApiError(403, 'errorCode WRONG_PASSWORD: not the account’s password', [AuthErrorCode.WrongPassword])
  @ApiError(409, 'errorCode ADMIN_ACCOUNT: an admin’s account is not deleted here', [AuthErrorCode.AdminAccount])
  @ApiError(429, 'Too many failed attempts for this account, or from this network')
  @ApiError(503, 'Too many passwords being hashed at once: try again shortly')
  async delete(@CurrentUser() user: AuthUser, @Body() dto: DeleteAccountDto, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.account.delete(user, dto.password);
    res.clearCookie(sessionCookieName(this.config), sessionCookieOptions(this.config));
    res.setHeader('Clear-Site-Data', '"cache", "cookies", "storage"');
  }
}
