import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule, APP_CONFIG } from '../../server/src/config/config.module';
import { AppConfig } from '../../server/src/config/config.schema';
import { DatabaseModule } from '../../server/src/database/database.module';
import { QueueModule } from '../../server/src/queue/queue.module';
import { RedisModule } from '../../server/src/redis/redis.module';
import { JobRunner } from './jobs/job-runner.service';
import { MaintenanceProcessor } from './processors/maintenance.processor';

/** The worker process: BullMQ processors over the same config, database and Redis as the server; no HTTP. */
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
  providers: [JobRunner, MaintenanceProcessor],
})
export class WorkerModule {}
