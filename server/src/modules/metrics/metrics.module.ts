import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { QueueModule } from '#shared/queue/queue.module';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { ServerMetrics } from './server-metrics';

/** Prometheus series of the server, on a port of its own (METRICS_PORT); see docs/operations.md. */
@Module({ imports: [QueueModule], providers: [ServerMetrics], exports: [ServerMetrics] })
export class MetricsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*path');
  }
}
