import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PublicCache } from '../common/http/http-caching';
import { Public } from '../common/decorators/auth.decorators';
import { clientIp } from '../common/utils/client-ip';
import { siteOf, type SiteIdentity } from '../common/http/site-identity';
import { ApiPublic } from '../openapi/openapi.decorators';

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

  @ApiProperty({
    example: 'https://hunktube.example',
    description: "The site's public origin (PUBLIC_URL, or the brand host's own): what its share links and embed codes are written with",
  })
  origin: string;
}

export class ClientIpDto {
  @ApiProperty() ip: string;
}

/**
 * The site's settings as `GET /api/site` answers them (and the pages' bootstrap block carries them), for the
 * site the request reached (its brand and name by host, docs/decisions.md › "Brands by host").
 */
export function toSiteDto(config: AppConfig, site: SiteIdentity): SiteDto {
  const { mediaHosts, imageHost } = config;
  return { name: site.name, brand: site.brand, mediaHosts: { ...mediaHosts }, imageHost, origin: site.origin };
}

@ApiTags('site')
// From the settings and the request alone: no database, no Redis.
@ApiPublic({ dependencies: false })
@Public()
@Controller()
export class SiteController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('site')
  @PublicCache()
  @ApiOperation({ summary: 'The site’s name, brand, media hosts and origin' })
  @ApiResponse({ status: 200, type: SiteDto })
  site(@Req() req: Request): SiteDto {
    return toSiteDto(this.config, siteOf(req, this.config));
  }

  /** The caller's address as the configured proxy trust sees it. */
  @Get('get-client-ip')
  @ApiOperation({ summary: 'The caller’s address, as the configured proxy trust sees it' })
  @ApiResponse({ status: 200, type: ClientIpDto })
  clientIp(@Req() req: Request): ClientIpDto {
    return { ip: clientIp(req) };
  }
}
