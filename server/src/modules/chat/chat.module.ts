import { Module } from '@nestjs/common';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { BlocksModule } from '../blocks/blocks.module';
import { FilesModule } from '../files/files.module';
import { ChatAccessModule } from './chat-access.module';
import { ChatGroupsController } from './chat-groups.controller';
import { ChatGroupLimits } from './chat-groups.limits';
import { ChatGroupsService } from './chat-groups.service';
import { ChatMessagesController } from './chat-messages.controller';
import { ChatHotPathPool } from './chat-hot-path.pool';
import { ChatMessageEditsService } from './chat-message-edits.service';
import { ChatMessageInsertQueue } from './chat-message-insert.queue';
import { ChatMessagesRepository } from './chat-messages.repository';
import { ChatMessagesService } from './chat-messages.service';
import { ChatTargets } from './chat-targets';
import { ChatUsersRepository } from './chat-users.repository';
import { UnreadCountsRepository } from './unread-counts.repository';
import { ReadMarkerService } from './read-marker.service';
import { FanoutLag } from '../../realtime/fanout-lag';
import { LoadSignals, NodeLoadSignals } from './node-load-signals';
import { SendAdmission } from './send-admission';
import { SendAdmissionGuard } from './send-admission.guard';
import { UnreadService } from './unread.service';
import { MessageTranslationsRepository } from '../translation/message-translations.repository';

@Module({
  imports: [ChatAccessModule, FilesModule, RateLimitModule, BlocksModule],
  // Groups first: its POST groups/target must be matched before the messages controller's POST groups/:id.
  controllers: [ChatGroupsController, ChatMessagesController],
  providers: [
    ChatGroupsService,
    ChatGroupLimits,
    ChatMessagesService,
    ChatMessageEditsService,
    ChatMessagesRepository,
    MessageTranslationsRepository,
    ChatMessageInsertQueue,
    ChatHotPathPool,
    ChatUsersRepository,
    UnreadService,
    UnreadCountsRepository,
    ChatTargets,
    ReadMarkerService,
    // The fan-out reader (RealtimeModule) feeds the lag; admission reads it with this module's insert queue.
    FanoutLag,
    { provide: LoadSignals, useClass: NodeLoadSignals },
    SendAdmission,
    SendAdmissionGuard,
  ],
  exports: [ChatMessagesService, ChatMessageEditsService, ChatGroupsService, UnreadService, ChatTargets, ReadMarkerService, FanoutLag, SendAdmission],
})
export class ChatModule {}
