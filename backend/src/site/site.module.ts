import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { SiteController } from './site.controller';

@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  controllers: [SiteController, HealthController],
})
export class SiteModule {}
