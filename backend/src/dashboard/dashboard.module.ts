import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { RemovalRequestsModule } from '../removal-requests/removal-requests.module';
import { TaxaStoreModule } from '../taxa/taxa-store.module';
import { VideoStoreModule } from '../videos/video-store.module';
import { DashboardController } from './dashboard.controller';
import { DashboardService } from './dashboard.service';

/** The admins' site dashboard: owns no table, asks each owner for its figures. */
@Module({
  imports: [AuthModule, JobsModule, RemovalRequestsModule, TaxaStoreModule, VideoStoreModule],
  controllers: [DashboardController],
  providers: [DashboardService],
})
export class DashboardModule {}
