import { Module } from '@nestjs/common';
import { QueueModule } from '#shared/queue/queue.module';
import { HealthProbes } from './health-probes';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

@Module({ imports: [QueueModule], controllers: [HealthController], providers: [HealthService, HealthProbes] })
export class HealthModule {}
