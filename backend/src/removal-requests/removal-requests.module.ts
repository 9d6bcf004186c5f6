import { Module } from '@nestjs/common';
import { AdminRemovalRequestsController, RemovalRequestsController } from './removal-requests.controller';
import { RemovalRequestsService } from './removal-requests.service';

@Module({
  controllers: [RemovalRequestsController, AdminRemovalRequestsController],
  providers: [RemovalRequestsService],
})
export class RemovalRequestsModule {}
