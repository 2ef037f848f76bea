import { Module } from '@nestjs/common';
import { ChatAccessModule } from '../chat/chat-access.module';
import { ChatModule } from '../chat/chat.module';
import { ModerationModule } from '../moderation/moderation.module';
import { RealtimeModule } from '../../realtime/realtime.module';
import { ReportsAdminController, ReportsController } from './reports.controller';
import { ReportsListener } from './reports.listener';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';

@Module({
  imports: [ChatAccessModule, ChatModule, ModerationModule, RealtimeModule],
  controllers: [ReportsController, ReportsAdminController],
  providers: [ReportsRepository, ReportsService, ReportsListener],
})
export class ReportsModule {}
