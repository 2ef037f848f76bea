import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ActivityInterceptor } from './activity.interceptor';
import { PresenceAudience } from './presence-audience.service';
import { PresenceAudienceRepository } from './presence-audience.repository';
import { PresenceService } from '#shared/presence/presence.service';

@Module({
  providers: [PresenceService, PresenceAudience, PresenceAudienceRepository, { provide: APP_INTERCEPTOR, useClass: ActivityInterceptor }],
  exports: [PresenceService, PresenceAudience],
})
export class PresenceModule {}
