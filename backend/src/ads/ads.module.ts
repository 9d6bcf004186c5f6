import { Module } from '@nestjs/common';
import { AdEventsService } from './ad-events.service';
import { AdStatsService } from './ad-stats.service';
import { AdZonesService } from './ad-zones.service';
import { AdminAdZonesController, AdsController } from './ads.controller';
import { AdsService } from './ads.service';

/** Ad zones (issue #35, docs/ads.md): the admins' zones, the slots pages ask for, their figures. */
@Module({
  controllers: [AdsController, AdminAdZonesController],
  providers: [AdZonesService, AdEventsService, AdStatsService, AdsService],
  exports: [AdZonesService, AdEventsService],
})
export class AdsModule {}
