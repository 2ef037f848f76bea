import { Module } from '@nestjs/common';
import { ChatAccessService } from './chat-access.service';
import { ChatGroupsRepository } from './chat-groups.repository';

/** Group membership checks, shared by chat and files without a cycle between them. */
@Module({
  providers: [ChatAccessService, ChatGroupsRepository],
  exports: [ChatAccessService, ChatGroupsRepository],
})
export class ChatAccessModule {}
