import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule, APP_CONFIG } from '../../server/src/config/config.module';
import { AppConfig } from '../../server/src/config/config.schema';
import { DatabaseModule } from '../../server/src/database/database.module';
import { QueueModule } from '../../server/src/queue/queue.module';
import { RedisModule } from '../../server/src/redis/redis.module';
import { OutboxRelay } from '../../server/src/modules/outbox/outbox-relay.service';
import { PresenceRepository } from '../../server/src/modules/presence/presence.repository';
import { PresenceService } from '../../server/src/modules/presence/presence.service';
import { PushNotificationsRepository } from '../../server/src/modules/push/push-notifications.repository';
import { PushSubscriptionsRepository } from '../../server/src/modules/push/push-subscriptions.repository';
import { JobRunner } from './jobs/job-runner.service';
import { MaintenanceProcessor } from './processors/maintenance.processor';
import { NotificationsProcessor } from './processors/notifications.processor';
import { NotificationQueries } from './push/notification-queries';
import { PushSender } from './push/push-sender';

/** The worker process: the outbox relay and BullMQ processors over the same config, database and Redis as the server; no HTTP. */
@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ pinoHttp: { level: config.LOG_LEVEL, name: 'worker' } }),
    }),
    DiscoveryModule,
    DatabaseModule,
    RedisModule,
    QueueModule,
  ],
  providers: [
    JobRunner,
    MaintenanceProcessor,
    NotificationsProcessor,
    NotificationQueries,
    PushSender,
    PushSubscriptionsRepository,
    PushNotificationsRepository,
    PresenceService,
    PresenceRepository,
    // The outbox relay runs in the worker: it needs no HTTP, and scales with worker replicas (SKIP LOCKED).
    OutboxRelay,
  ],
})
export class WorkerModule {}
