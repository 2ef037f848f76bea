import { Module } from '@nestjs/common';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { BlocksModule } from '../blocks/blocks.module';
import { FilesModule } from '../files/files.module';
import { ChatAccessModule } from './chat-access.module';
import { ChatGroupsController } from './chat-groups.controller';
import { ChatGroupLimits } from './chat-groups.limits';
import { ChatGroupsService } from './chat-groups.service';
import { ChatMessagesController } from './chat-messages.controller';
import { ChatHotPathPool } from './send/chat-hot-path.pool';
import { ChatMessageEditsService } from './chat-message-edits.service';
import { ChatMessageInsertQueue } from './send/chat-message-insert.queue';
import { ChatMessagesRepository } from './chat-messages.repository';
import { ChatMessagesService } from './chat-messages.service';
import { ChatTargets } from './chat-targets';
import { ChatUsersRepository } from './chat-users.repository';
import { UnreadCountsRepository } from './unread/unread-counts.repository';
import { ReadMarkerService } from './unread/read-marker.service';
import { FanoutModule } from '../../fanout/fanout.module';
import { ChatFanoutListener } from './chat-fanout.listener';
import { TranslationReadyListener } from './translation-ready.listener';
import { LoadSignals, NodeLoadSignals } from './send/node-load-signals';
import { SendAdmission } from './send/send-admission';
import { SendAdmissionGuard } from './send/send-admission.guard';
import { UnreadService } from './unread/unread.service';
import { MessageTranslationsRepository } from '../translation/message-translations.repository';

@Module({
  imports: [ChatAccessModule, FilesModule, RateLimitModule, BlocksModule, FanoutModule],
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
    ChatFanoutListener,
    TranslationReadyListener,
    { provide: LoadSignals, useClass: NodeLoadSignals },
    SendAdmission,
    SendAdmissionGuard,
  ],
  exports: [ChatMessagesService, ChatMessageEditsService, ChatGroupsService, UnreadService, ChatTargets, ReadMarkerService, SendAdmission],
})
export class ChatModule {}
