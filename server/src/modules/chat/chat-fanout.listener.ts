import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../../common/events/domain-events';
import { GroupChangedEvent, MessageCreatedEvent, MessageDeletedEvent, MessageEditedEvent, GroupReadEvent } from '#shared/contracts/events';
import { ChatGroupsService } from './chat-groups.service';
import { UnreadService } from './unread/unread.service';
import { groupRoom, userRoom } from '#shared/contracts/socket-events';
import { FanoutPublisher } from '../../fanout/fanout-publisher';

/**
 * Fans committed chat changes out to sockets, all through the ordered fan-out: messages in seq order, and edits,
 * deletions and group changes each right behind the message it concerns (or the group's last message then).
 */
@Injectable()
export class ChatFanoutListener implements OnModuleInit, OnModuleDestroy {
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly events: DomainEvents,
    private readonly unread: UnreadService,
    private readonly groups: ChatGroupsService,
    private readonly fanout: FanoutPublisher,
  ) {}

  onModuleInit(): void {
    this.unsubscribe.push(
      this.events.on('message.created', (e) => this.messageCreated(e)),
      this.events.on('message.deleted', (e) => this.messageDeleted(e)),
      this.events.on('message.edited', (e) => this.messageEdited(e)),
      this.events.on('group.changed', (e) => this.groupChanged(e)),
      this.events.on('group.read', (e) => this.groupRead(e)),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe.forEach((off) => off());
  }

  private messageCreated({ message, participantCodes, originSocketId }: MessageCreatedEvent): void {
    const author = message.userCode && participantCodes.includes(message.userCode) ? message.userCode : null;
    this.fanout.publishMessage(
      message.groupCode,
      message.seq,
      this.rooms(participantCodes, message.groupCode),
      message,
      this.unread.messageEffect(
        participantCodes.filter((code) => code !== message.userCode),
        author,
      ),
      originSocketId,
    );
  }

  /** A message's participants and the group's watching moderators. */
  private rooms(participantCodes: string[], groupCode: string): string[] {
    return [...participantCodes.map(userRoom), groupRoom(groupCode)];
  }

  private async messageDeleted(e: MessageDeletedEvent): Promise<void> {
    this.fanout.publishFollowUp(e.groupCode, { seq: e.seq, at: e.createdAt }, this.rooms(e.participantCodes, e.groupCode), 'message:deleted', {
      groupCode: e.groupCode,
      code: e.code,
    });
    // Recounted from Postgres and pushed to each participant through the fan-out stream.
    await this.unread.fill(e.participantCodes, e.groupCode);
  }

  /** The same path as a deletion: every participant's rooms and the group's watching moderators. */
  private messageEdited({ message, participantCodes }: MessageEditedEvent): void {
    this.fanout.publishFollowUp(
      message.groupCode,
      { seq: message.seq, at: message.createdAt },
      this.rooms(participantCodes, message.groupCode),
      'message:updated',
      {
        groupCode: message.groupCode,
        code: message.code,
        message: message.message,
        translation: message.translation,
        editedAt: message.editedAt ?? null,
      },
    );
  }

  private async groupChanged(e: GroupChangedEvent): Promise<void> {
    const group = await this.groups.snapshot(e.groupCode);
    // After the group's messages up to then: a change never overtakes a message sent before it.
    if (group)
      this.fanout.publishFollowUp(
        e.groupCode,
        { seq: group.lastSeq, at: group.lastMessageAt },
        this.rooms(e.participantCodes, e.groupCode),
        'group:updated',
        group,
      );
  }

  private async groupRead(e: GroupReadEvent): Promise<void> {
    await this.unread.read(e.userCode, e.groupCode, e.unread, e.lastSeq);
  }
}
