import { Module } from '@nestjs/common';
import { ChatAccessService } from './chat-access.service';
import { ChatGroupsRepository } from './chat-groups.repository';
import { RoomWatchersService } from './room-watchers.service';

/** Group membership checks and room watches, shared by chat, files and realtime without a cycle between them. */
@Module({
  providers: [ChatAccessService, ChatGroupsRepository, RoomWatchersService],
  exports: [ChatAccessService, ChatGroupsRepository, RoomWatchersService],
})
export class ChatAccessModule {}
