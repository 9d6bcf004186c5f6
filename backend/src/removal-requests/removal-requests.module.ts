import { Module } from '@nestjs/common';
import { VideoStoreModule } from '../videos/video-store.module';
import { AdminRemovalRequestsController, RemovalRequestsController } from './removal-requests.controller';
import { RemovalRequestsService } from './removal-requests.service';

/** Content removal requests (owns `removal_requests`); the videos they name are read from the videos' owner. */
@Module({
  imports: [VideoStoreModule],
  controllers: [RemovalRequestsController, AdminRemovalRequestsController],
  providers: [RemovalRequestsService],
  exports: [RemovalRequestsService],
})
export class RemovalRequestsModule {}
