import { Module } from '@nestjs/common';
import { ChatAccessModule } from '../chat/chat-access.module';
import { PresenceModule } from '../presence/presence.module';
import { AdminController } from './admin.controller';
import { ModerationQueriesService } from './moderation-queries.service';
import { ModerationRepository } from './moderation.repository';
import { ModerationService } from './moderation.service';

@Module({
  imports: [ChatAccessModule, PresenceModule],
  controllers: [AdminController],
  providers: [ModerationRepository, ModerationService, ModerationQueriesService],
  exports: [ModerationService],
})
export class ModerationModule {}
