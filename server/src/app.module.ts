import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule } from '#shared/config/config.module';
import { ErrorEnvelopeFilter } from './common/filters/error-envelope.filter';
import { AuthGuard } from './modules/auth/auth.guard';
import { Authenticator } from './modules/auth/authenticator';
import { RolesGuard } from './common/guards/roles.guard';
import { InstanceMiddleware } from './modules/instances/instance.middleware';
import { loggerOptions } from './common/logger';
import { DatabaseModule } from '#shared/database/database.module';
import { TracingShutdown } from '#shared/telemetry/tracing-shutdown';
import { serverSchema } from './database/data-source';
import { AuthModule } from './modules/auth/auth.module';
import { ChatModule } from './modules/chat/chat.module';
import { MarketplaceModule } from './modules/marketplace/marketplace.module';
import { ModerationModule } from './modules/moderation/moderation.module';
import { ReviewsModule } from './modules/reviews/reviews.module';
import { ReportsModule } from './modules/reports/reports.module';
import { BlocksModule } from './modules/blocks/blocks.module';
import { PresenceModule } from './modules/presence/presence.module';
import { NotificationsModule } from './modules/notifications/notifications.module';
import { PushModule } from './modules/push/push.module';
import { TranslationModule } from './modules/translation/translation.module';
import { RealtimeModule } from './realtime/realtime.module';
import { EventsModule } from './common/events/events.module';
import { HealthModule } from './modules/health/health.module';
import { LifecycleModule } from './modules/lifecycle/lifecycle.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { InstancesModule } from './modules/instances/instances.module';
import { MiscModule } from './modules/misc/misc.module';
import { UsersModule } from './modules/users/users.module';
import { WebModule } from './modules/web/web.module';
import { RedisModule } from '#shared/redis/redis.module';

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync(loggerOptions),
    DatabaseModule.forRoot(serverSchema),
    RedisModule,
    LifecycleModule,
    MetricsModule,
    InstancesModule,
    // Auth before users: its GET User/AuthProviders must be routed before GET user/:id.
    AuthModule,
    UsersModule,
    HealthModule,
    MiscModule,
    EventsModule,
    ChatModule,
    MarketplaceModule,
    ReviewsModule,
    PresenceModule,
    ModerationModule,
    ReportsModule,
    BlocksModule,
    PushModule,
    TranslationModule,
    NotificationsModule,
    RealtimeModule,
    WebModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
    Authenticator,
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: RolesGuard },
    TracingShutdown,
  ],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Health answers for the process and its dependencies, whichever instance asks (and while Postgres is down).
    consumer
      .apply(InstanceMiddleware)
      .exclude({ path: 'health', method: RequestMethod.GET }, { path: 'health/*path', method: RequestMethod.GET })
      .forRoutes('*path');
  }
}
