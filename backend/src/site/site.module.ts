import { Module } from '@nestjs/common';
import { HealthController } from './health.controller';
import { SiteController } from './site.controller';

@Module({
  controllers: [SiteController, HealthController],
})
export class SiteModule {}
