import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ActivityInterceptor } from './activity.interceptor';
import { PresenceRepository } from '#shared/presence/presence.repository';
import { PresenceService } from '#shared/presence/presence.service';

@Module({
  providers: [PresenceService, PresenceRepository, { provide: APP_INTERCEPTOR, useClass: ActivityInterceptor }],
  exports: [PresenceService],
})
export class PresenceModule {}
