import { Logger, OnModuleDestroy } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayDisconnect, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Socket } from 'socket.io';
import { Ack, groupRoom } from '#shared/contracts/socket-events';
import { tooManyRequests } from '../common/errors';
import { validatePayload } from '../common/validation';
import { FanoutNode } from '../fanout/fanout-node';
import { RoomWatchersService } from '../modules/chat/room-watchers.service';
import { ModerationService } from '../modules/moderation/moderation.service';
import { GroupCodeDto } from './dto/socket-events.dto';
import { IoServer } from './socket-emitter.service';
import { hasState, liveStateOf, respond, stateOf } from './socket-handler';

const WATCH_REFRESH_MS = 30_000;

/**
 * A moderator watching a group's room live: room:watch and room:unwatch, the watches kept alive while the
 * socket stays (refreshed every WATCH_REFRESH_MS) and released when it goes.
 */
@WebSocketGateway()
export class ModeratorGateway implements OnGatewayInit, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger(ModeratorGateway.name);
  private watchRefresh?: NodeJS.Timeout;

  constructor(
    private readonly moderation: ModerationService,
    private readonly watchers: RoomWatchersService,
    private readonly fanoutNode: FanoutNode,
  ) {}

  /** Only the refresh timer: the server's wiring is SessionGateway's. */
  afterInit(server: IoServer): void {
    this.watchRefresh = setInterval(() => this.refreshWatches(server), WATCH_REFRESH_MS);
    this.watchRefresh.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.watchRefresh);
  }

  async handleDisconnect(socket: Socket): Promise<void> {
    if (!hasState(socket)) return;
    const state = stateOf(socket);
    for (const groupCode of state.watching ?? []) {
      await this.moderation.release(state.user, groupCode, state.watchId).catch(() => undefined);
    }
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

  private refreshWatches(server: IoServer): void {
    const watches = [...server.of('/').sockets.values()]
      .filter(hasState)
      .flatMap((s) => [...(stateOf(s).watching ?? [])].map((groupCode) => ({ groupCode, userCode: stateOf(s).user.code, socketId: stateOf(s).watchId })));
    this.watchers.refresh(watches).catch((err: unknown) => this.logger.warn({ err }, 'refreshing watches'));
  }
}
