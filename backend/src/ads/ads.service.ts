import type { AdPlacement } from '@hunktube/shared';
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { siteOf } from '../common/http/site-identity';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { zonesFor } from './ad-zone-rules';
import { AdEventsService } from './ad-events.service';
import { AdZonesService } from './ad-zones.service';
import type { AdSlotListDto } from './dto/ad-zone.dto';

/** GET /api/ads: the zones that may fill one slot for the viewer asking (docs/ads.md › "Rules"). */
@Injectable()
export class AdsService {
  constructor(
    private readonly zones: AdZonesService,
    private readonly events: AdEventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async slots(req: Request, placement: AdPlacement, embed: boolean, userId: string | null): Promise<AdSlotListDto> {
    const brand = siteOf(req, this.config).brand;
    let fitting = zonesFor(await this.zones.zones(), placement, { brand, member: userId !== null, embed });
    // A member's cap is kept here (a guest's in the browser): zones they have seen often enough are left out.
    if (userId !== null) {
      const capped = await this.events.cappedFor(userId, fitting);
      fitting = fitting.filter((zone) => !capped.has(zone.id));
    }
    return {
      data: fitting.map(({ id, kind, vastUrl, html, skipAfter, weight, frequencyCap }) => ({
        id, placement, kind, vastUrl, html, skipAfter, weight, frequencyCap,
      })),
    };
  }
}
