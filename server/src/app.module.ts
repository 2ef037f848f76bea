import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule } from './config/config.module';
import { ErrorEnvelopeFilter } from './common/filters/error-envelope.filter';
import { AuthGuard } from './common/guards/auth.guard';
import { RolesGuard } from './common/guards/roles.guard';
import { InstanceMiddleware } from './common/middleware/instance.middleware';
import { loggerOptions } from './common/logger';
import { DatabaseModule } from './database/database.module';
import { AuthModule } from './modules/auth/auth.module';
import { ChatModule } from './modules/chat/chat.module';
import { EventsModule } from './common/events/events.module';
import { HealthModule } from './modules/health/health.module';
import { InstancesModule } from './modules/instances/instances.module';
import { UsersModule } from './modules/users/users.module';
import { RedisModule } from './redis/redis.module';

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync(loggerOptions),
    DatabaseModule,
    RedisModule,
    InstancesModule,
    UsersModule,
    AuthModule,
    HealthModule,
    EventsModule,
    ChatModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
    { provide: APP_GUARD, useClass: AuthGuard },
    { provide: APP_GUARD, useClass: RolesGuard },
  ],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(InstanceMiddleware).forRoutes('*path');
  }
}
