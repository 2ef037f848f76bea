import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config.schema';
import { QueueName } from '../contracts/queues';
import { bullConnection, bullPrefix } from './bull-connection';
import { JobService } from './job.service';

/** BullMQ on the deployment's Redis: every queue of the contract, and the typed JobService to add jobs. */
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        connection: bullConnection(config.REDIS_URL),
        prefix: bullPrefix(config.REDIS_PREFIX),
        defaultJobOptions: {
          attempts: 5,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: { count: 1000 },
          removeOnFail: { count: 5000 },
        },
      }),
    }),
    BullModule.registerQueue(...Object.values(QueueName).map((name) => ({ name }))),
  ],
  providers: [JobService],
  exports: [JobService, BullModule],
})
export class QueueModule {}
