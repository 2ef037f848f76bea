import { Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, SubscribeMessage, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Socket } from 'socket.io';
import { Ack, groupRoom, SyncAnswer, UnreadCountPayload, userRoom } from '#shared/contracts/socket-events';
import { ChatMessagePayload } from '#shared/contracts/events';
import { PresenceService } from '#shared/presence/presence.service';
import { tooManyRequests } from '../common/errors';
import { validatePayload } from '../common/validation';
import { ChatAccessService } from '../modules/chat/chat-access.service';
import { ChatGroupsRepository } from '../modules/chat/chat-groups.repository';
import { ChatMessageEditsService } from '../modules/chat/chat-message-edits.service';
import { ChatMessagesService } from '../modules/chat/chat-messages.service';
import { SendAdmission } from '../modules/chat/send/send-admission';
import { ReadMarkerService } from '../modules/chat/unread/read-marker.service';
import { UnreadService } from '../modules/chat/unread/unread.service';
import { activityAgoMs } from '../modules/presence/activity-report';
import { GroupCodeDto, GroupReadDto, SocketEditDto, SocketSendDto, SyncDto } from './dto/socket-events.dto';
import { IoServer } from './socket-emitter.service';
import { liveStateOf, respond, stateOf } from './socket-handler';

const TYPING_EVERY_MS = 2000;

/** What a participant does in a chat: send, edit, read, catch up (sync), type, report activity. */
@WebSocketGateway()
export class ChatEventsGateway {
  private readonly logger = new Logger(ChatEventsGateway.name);
  @WebSocketServer() private readonly server!: IoServer;

  constructor(
    private readonly messages: ChatMessagesService,
    private readonly edits: ChatMessageEditsService,
    private readonly access: ChatAccessService,
    private readonly groups: ChatGroupsRepository,
    private readonly readMarker: ReadMarkerService,
    private readonly unread: UnreadService,
    private readonly presence: PresenceService,
    private readonly admission: SendAdmission,
  ) {}

  @SubscribeMessage('message:send')
  send(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ message: ChatMessagePayload }>> {
    return respond(async () => {
      const { user, userLimits } = liveStateOf(socket);
      // Before the rate limit: a refusal under load spends none of the sender's budget.
      this.admission.admit();
      if (!userLimits.send.take()) throw tooManyRequests(1);
      const dto = await validatePayload(SocketSendDto, body);
      const message = await this.messages.send(user, dto.groupCode, dto, socket.id);
      this.recordActivity(user.code);
      return { message };
    });
  }

  @SubscribeMessage('message:edit')
  edit(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ message: ChatMessagePayload }>> {
    return respond(async () => {
      const { user, userLimits } = liveStateOf(socket);
      // Edits share the send budget: each one is pushed to every participant, like a message.
      if (!userLimits.send.take()) throw tooManyRequests(1);
      const dto = await validatePayload(SocketEditDto, body);
      const message = await this.edits.edit(user, dto.groupCode, dto.code, dto);
      this.recordActivity(user.code);
      return { message };
    });
  }

  @SubscribeMessage('group:read')
  read(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ unread: UnreadCountPayload }>> {
    return respond(async () => {
      const { user } = liveStateOf(socket);
      const dto = await validatePayload(GroupReadDto, body);
      // The read's listener updates the cached counts and pushes unread:count to all the user's sockets.
      await this.readMarker.markRead(user, dto.groupCode, dto.seq);
      return { unread: await this.unread.current(user.code) };
    });
  }

  @SubscribeMessage('sync')
  sync(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<SyncAnswer>> {
    return respond(async () => {
      const { user, userLimits } = liveStateOf(socket);
      if (!userLimits.sync.take()) throw tooManyRequests(1);
      const dto = await validatePayload(SyncDto, body);
      return this.messages.since(user, dto.groups);
    });
  }

  @SubscribeMessage('typing')
  async typing(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<void> {
    const state = stateOf(socket);
    if (state.expired) return;
    const dto = await validatePayload(GroupCodeDto, body).catch(() => null);
    if (!dto || !state.userLimits.typing.take()) return;
    const last = state.typingAt?.get(dto.groupCode) ?? 0;
    if (Date.now() - last < TYPING_EVERY_MS) return;
    (state.typingAt ??= new Map()).set(dto.groupCode, Date.now());
    try {
      const { group, participant } = await this.access.asReader(state.user, dto.groupCode);
      if (!participant) return;
      const codes = await this.groups.participantCodes(group.id);
      const rooms = [...codes.map(userRoom), groupRoom(dto.groupCode)];
      this.server.to(rooms).except(userRoom(state.user.code)).volatile.emit('typing', { groupCode: dto.groupCode, userCode: state.user.code });
    } catch {
      // Typing in a group one can't see is ignored, like any other typing noise.
    }
  }

  @SubscribeMessage('activity')
  activity(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): void {
    const state = stateOf(socket);
    if (!state.expired) this.recordActivity(state.user.code, activityAgoMs(body));
  }

  /** Best effort and never awaited: a send or a ping must not wait for, or fail with, Redis. */
  private recordActivity(userCode: string, agoMs = 0): void {
    this.presence.recordActivity(userCode, false, agoMs).catch((err: unknown) => this.logger.warn(`recording activity: ${(err as Error).message}`));
  }
}
