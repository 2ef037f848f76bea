import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ActivityInterceptor } from './activity.interceptor';
import { PresenceAudience } from './presence-audience.service';
import { PresenceAudienceRepository } from './presence-audience.repository';
import { PresenceClock } from '#shared/presence/presence-clock';
import { PresenceService } from '#shared/presence/presence.service';

@Module({
  providers: [PresenceClock, PresenceService, PresenceAudience, PresenceAudienceRepository, { provide: APP_INTERCEPTOR, useClass: ActivityInterceptor }],
  exports: [PresenceClock, PresenceService, PresenceAudience],
})
export class PresenceModule {}
