import { getQueueToken } from '@nestjs/bullmq';
import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { QueueName } from '#shared/contracts/queues';
import { QueueModule } from '#shared/queue/queue.module';
import { UsersModule } from '../users/users.module';
import { PushAdminController } from './push-admin.controller';
import { PushController } from './push.controller';
import { PushNotificationsRepository } from '#shared/push/push-notifications.repository';
import { PushService } from './push.service';
import { PushSubscriptionsRepository } from '#shared/push/push-subscriptions.repository';
import { QUEUE_BOARD_PATH, QueueBoard } from './queue-board';

/** Web push on the server: subscriptions, the admin's notification log and the queue dashboard. The worker sends. */
@Module({
  imports: [QueueModule, UsersModule],
  controllers: [PushController, PushAdminController],
  providers: [PushService, PushSubscriptionsRepository, PushNotificationsRepository, QueueBoard],
  exports: [QueueModule],
})
export class PushModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly moduleRef: ModuleRef,
    private readonly board: QueueBoard,
  ) {}

  /** Mounts Bull Board after Nest's routes (so POST .../queues/session is Nest's) and before its 404 handler. */
  onModuleInit(): void {
    const http = this.adapterHost.httpAdapter;
    if (!http) return;
    const queues = Object.values(QueueName).map((name) => this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
    const app = http.getInstance<{ use: (path: string, ...handlers: unknown[]) => void }>();
    app.use(QUEUE_BOARD_PATH, this.board.guard(), this.board.router(queues));
  }
}
