import { Inject, Logger, OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayConnection, OnGatewayDisconnect, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Socket } from 'socket.io';
import { Ack, groupRoom, instanceRoom, SyncAnswer, UnreadCountPayload, userRoom } from '#shared/contracts/socket-events';
import { ChatMessagePayload } from '#shared/contracts/events';
import { AppConfig } from '#shared/config/config.schema';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppError, conflict, ErrorKey, tooManyRequests, unauthorized } from '../common/errors';
import { Authenticator } from '../common/guards/authenticator';
import { validatePayload } from '../common/validation';
import { ChatAccessService } from '../modules/chat/chat-access.service';
import { ChatGroupsRepository } from '../modules/chat/chat-groups.repository';
import { ChatMessageEditsService } from '../modules/chat/chat-message-edits.service';
import { ChatMessagesService } from '../modules/chat/chat-messages.service';
import { ReadMarkerService } from '../modules/chat/unread/read-marker.service';
import { SendAdmission } from '../modules/chat/send/send-admission';
import { RoomWatchersService } from '../modules/chat/room-watchers.service';
import { UnreadService } from '../modules/chat/unread/unread.service';
import { ModerationService } from '../modules/moderation/moderation.service';
import { PresenceService } from '#shared/presence/presence.service';
import { activityAgoMs } from '../modules/presence/activity-report';
import { PresenceAudience } from '../modules/presence/presence-audience.service';
import { AuthRefreshDto, GroupCodeDto, GroupReadDto, PresenceWatchDto, SocketEditDto, SocketSendDto, SyncDto } from './dto/socket-events.dto';
import { presenceRoom, PresenceBroadcaster } from './presence-broadcaster.service';
import { FanoutNode } from '../fanout/fanout-node';
import { LocalDelivery } from '../fanout/local-delivery';
import { hasState, liveStateOf, respond, stateOf } from './socket-handler';
import { isAwaitingLogin, openSession, socketHandshake } from './socket-handshake';
import { LOGIN_EVENT } from './socket-login-gate';
import { TokenBucket, UserBucketRegistry } from './socket-rate-limiter';
import { IoServer, SocketEmitter } from './socket-emitter.service';

const TYPING_EVERY_MS = 2000;
/** Every budget is per user (all their sockets on a node). Sends and edits: 10 a second with bursts of 30. */
const SEND_RATE = 10;
const SEND_BURST = 30;
const TYPING_RATE = 3;
const TYPING_BURST = 6;
/** Per user (all their sockets on a node): sync answers up to SYNC_MAX_MESSAGES each, 1 a second with bursts of 10 (a reconnect's catch-up rounds). */
const SYNC_RATE = 1;
const SYNC_BURST = 10;
/** Per user: presence:watch and room:watch together, 2 a second with bursts of 10 (the watches of a screen after a reconnect). Ending a watch is never limited. */
const WATCH_RATE = 2;
const WATCH_BURST = 10;
const WATCH_REFRESH_MS = 30_000;
/** setTimeout's ceiling; a token living longer is checked again when the timer fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const EXPIRED_DISCONNECT_DELAY_MS = 250;

/**
 * The realtime contract of the architecture: every client event is validated, rate limited and acknowledged.
 * No CORS: the app's pages are served from the same origin, and RedisIoAdapter refuses handshakes from other sites.
 */
@WebSocketGateway()
export class RealtimeGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(RealtimeGateway.name);
  private server!: IoServer;
  private watchRefresh?: NodeJS.Timeout;
  private readonly userLimits: UserBucketRegistry;
  private readonly loginTimeoutMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly authenticator: Authenticator,
    private readonly emitter: SocketEmitter,
    private readonly messages: ChatMessagesService,
    private readonly edits: ChatMessageEditsService,
    private readonly access: ChatAccessService,
    private readonly groups: ChatGroupsRepository,
    private readonly readMarker: ReadMarkerService,
    private readonly unread: UnreadService,
    private readonly presence: PresenceService,
    private readonly presenceBroadcaster: PresenceBroadcaster,
    private readonly moderation: ModerationService,
    private readonly watchers: RoomWatchersService,
    private readonly fanoutNode: FanoutNode,
    private readonly localDelivery: LocalDelivery,
    private readonly admission: SendAdmission,
    private readonly presenceAudience: PresenceAudience,
  ) {
    this.loginTimeoutMs = config.SOCKET_AUTH_TIMEOUT_MS;
    this.userLimits = new UserBucketRegistry(
      () => ({
        send: new TokenBucket(SEND_RATE, SEND_BURST),
        typing: new TokenBucket(TYPING_RATE, TYPING_BURST),
        sync: new TokenBucket(SYNC_RATE, SYNC_BURST),
        watch: new TokenBucket(WATCH_RATE, WATCH_BURST),
      }),
      (SYNC_BURST / SYNC_RATE) * 1000,
      config.SOCKET_MAX_PER_USER,
    );
  }

  afterInit(server: IoServer): void {
    this.server = server;
    this.emitter.attach(server);
    this.fanoutNode.watchRooms(server.of('/').adapter);
    this.localDelivery.attach(server.of('/'));
    server.use(socketHandshake(this.authenticator, this.fanoutNode, this.userLimits));
    this.watchRefresh = setInterval(() => this.refreshWatches(), WATCH_REFRESH_MS);
    this.watchRefresh.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.watchRefresh);
  }

  async handleConnection(socket: Socket): Promise<void> {
    if (hasState(socket)) return this.sessionStarted(socket);
    if (!isAwaitingLogin(socket)) {
      socket.disconnect(true);
      return;
    }
    const deadline = setTimeout(() => {
      if (!hasState(socket)) socket.disconnect(true);
    }, this.loginTimeoutMs);
    deadline.unref();
    socket.once('disconnect', () => clearTimeout(deadline));
  }

  /** A socket that has its user (by the handshake or the `auth` event): its rooms, its token's expiry, presence. */
  private async sessionStarted(socket: Socket): Promise<void> {
    const state = stateOf(socket);
    await socket.join([userRoom(state.user.code), instanceRoom(state.user.instanceId)]);
    this.scheduleExpiry(socket);
    await this.presenceBroadcaster.connected(state.user.code).catch((err: unknown) => this.logger.warn({ err }, 'presence on connect'));
  }

  async handleDisconnect(socket: Socket): Promise<void> {
    if (!hasState(socket)) return;
    const state = stateOf(socket);
    clearTimeout(state.expiryTimer);
    state.lease.release();
    for (const groupCode of state.watching ?? []) {
      await this.moderation.release(state.user, groupCode, state.watchId).catch(() => undefined);
    }
    await this.presenceBroadcaster.disconnected(state.user.code).catch((err: unknown) => this.logger.warn({ err }, 'presence on disconnect'));
  }

  /** At the token's expiry the socket is told `unauthorized` and dropped, unless auth:refresh moved it on. */
  private scheduleExpiry(socket: Socket): void {
    const state = stateOf(socket);
    clearTimeout(state.expiryTimer);
    const wait = Math.min(Math.max(state.tokenExpiresAt - Date.now(), 0), MAX_TIMER_MS);
    state.expiryTimer = setTimeout(() => {
      if (Date.now() < state.tokenExpiresAt) return this.scheduleExpiry(socket);
      state.expired = true;
      socket.emit('auth:expired', { message: 'unauthorized' });
      // With connection-state recovery every emit goes through the adapter (a Redis round trip) before it
      // is written, so the disconnect waits a moment instead of overtaking the event.
      setTimeout(() => socket.disconnect(true), EXPIRED_DISCONNECT_DELAY_MS).unref();
    }, wait);
    state.expiryTimer.unref();
  }

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

  @SubscribeMessage('presence:watch')
  watchPresence(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown) {
    return respond(async () => {
      const { user, userLimits } = liveStateOf(socket);
      if (!userLimits.watch.take()) throw tooManyRequests(1);
      const dto = await validatePayload(PresenceWatchDto, body);
      // Only people the user deals with (PresenceAudience); others are left out, as if unknown.
      const statuses = await this.presenceAudience.statusesFor(user, dto.userCodes);
      await socket.join(statuses.map((s) => presenceRoom(s.userCode)));
      return { statuses };
    });
  }

  @SubscribeMessage('room:watch')
  watchRoom(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack> {
    return respond(async () => {
      const state = liveStateOf(socket);
      if (!state.userLimits.watch.take()) throw tooManyRequests(1);
      const dto = await validatePayload(GroupCodeDto, body);
      await this.moderation.watch(state.user, dto.groupCode, state.watchId);
      (state.watching ??= new Set()).add(dto.groupCode);
      // Answered once the room is registered for this node, so what the moderator loads next misses nothing live.
      await this.fanoutNode.subscribeAhead(groupRoom(dto.groupCode), socket.id);
      await socket.join(groupRoom(dto.groupCode));
      return {};
    });
  }

  @SubscribeMessage('room:unwatch')
  unwatchRoom(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack> {
    return respond(async () => {
      const state = liveStateOf(socket);
      const dto = await validatePayload(GroupCodeDto, body);
      if (!state.watching?.delete(dto.groupCode)) return {};
      await socket.leave(groupRoom(dto.groupCode));
      await this.moderation.unwatch(state.user, dto.groupCode, state.watchId);
      return {};
    });
  }

  /**
   * Logging in after connecting, for a socket that connected without a token (the handshake's token stays the
   * usual way). Until then the socket may send nothing else (socket-login-gate.ts) and the deadline drops it.
   */
  @SubscribeMessage(LOGIN_EVENT)
  login(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ userCode: string; expiresAt: string }>> {
    return respond(async () => {
      if (hasState(socket)) throw conflict();
      const dto = await validatePayload(AuthRefreshDto, body);
      const { user, claims } = await this.authenticator.authenticate(dto.token);
      // Another auth of this socket got there first, or the socket left meanwhile.
      if (hasState(socket)) throw conflict();
      if (!socket.connected) throw unauthorized();
      const opened = openSession(socket, user, claims, socket.id, this.fanoutNode, this.userLimits);
      if (!opened) throw new AppError(429, ErrorKey.TooManyRequests, { maxSockets: this.userLimits.maxSockets });
      await opened;
      if (!socket.connected) throw unauthorized();
      await this.sessionStarted(socket);
      return { userCode: user.code, expiresAt: new Date(claims.exp * 1000).toISOString() };
    });
  }

  @SubscribeMessage('auth:refresh')
  refreshAuth(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown): Promise<Ack<{ expiresAt: string }>> {
    return respond(async () => {
      const state = liveStateOf(socket);
      const dto = await validatePayload(AuthRefreshDto, body);
      const { user, claims } = await this.authenticator.authenticate(dto.token);
      if (user.code !== state.user.code) throw unauthorized();
      state.user = user;
      state.tokenExpiresAt = claims.exp * 1000;
      this.scheduleExpiry(socket);
      return { expiresAt: new Date(state.tokenExpiresAt).toISOString() };
    });
  }

  private refreshWatches(): void {
    const watches = [...this.server.of('/').sockets.values()]
      .filter(hasState)
      .flatMap((s) => [...(stateOf(s).watching ?? [])].map((groupCode) => ({ groupCode, userCode: stateOf(s).user.code, socketId: stateOf(s).watchId })));
    this.watchers.refresh(watches).catch((err: unknown) => this.logger.warn({ err }, 'refreshing watches'));
  }
}
