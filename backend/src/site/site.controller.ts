import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiProperty, ApiTags, ApiResponse } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PublicCache } from '../common/http/http-caching';
import { Public } from '../common/decorators/auth.decorators';
import { clientIp } from '../common/utils/client-ip';

class MediaHostsDto {
  @ApiProperty({ name: '1' }) '1': string;
  @ApiProperty({ name: '2' }) '2': string;
  @ApiProperty() default: string;
}

export class SiteDto {
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['default', 'atg', 'jtg'] }) brand: string;
  @ApiProperty({ type: MediaHostsDto, description: 'Media host per cdn value; an empty string means this site' })
  mediaHosts: MediaHostsDto;

  @ApiProperty({ description: 'Host of posters, thumbnails and storyboards; empty means this site' }) imageHost: string;
}

export class ClientIpDto {
  @ApiProperty() ip: string;
}

/** The site's settings as `GET /api/site` answers them (and the pages' bootstrap block carries them). */
export function toSiteDto(config: AppConfig): SiteDto {
  const { siteName, brand, mediaHosts, imageHost } = config;
  return { name: siteName, brand, mediaHosts: { ...mediaHosts }, imageHost };
}

@ApiTags('site')
@Public()
@Controller()
export class SiteController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('site')
  @PublicCache()
  @ApiResponse({ status: 200, type: SiteDto })
  site(): SiteDto {
    return toSiteDto(this.config);
  }

  /** The caller's address as the configured proxy trust sees it. */
  @Get('get-client-ip')
  @ApiResponse({ status: 200, type: ClientIpDto })
  clientIp(@Req() req: Request): ClientIpDto {
    return { ip: clientIp(req) };
  }
}
