import { Inject, Logger } from '@nestjs/common';
import { ConnectedSocket, MessageBody, OnGatewayConnection, OnGatewayDisconnect, OnGatewayInit, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Socket } from 'socket.io';
import { Ack, instanceRoom, userRoom } from '#shared/contracts/socket-events';
import { AppConfig } from '#shared/config/config.schema';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppError, conflict, ErrorKey, unauthorized } from '../common/errors';
import { Authenticator } from '../modules/auth/authenticator';
import { validatePayload } from '../common/validation';
import { FanoutNode } from '../fanout/fanout-node';
import { LocalDelivery } from '../fanout/local-delivery';
import { AuthRefreshDto } from './dto/socket-events.dto';
import { PresenceBroadcaster } from './presence-broadcaster.service';
import { userBudgets } from './socket-budgets';
import { IoServer, SocketEmitter } from './socket-emitter.service';
import { hasState, liveStateOf, respond, stateOf } from './socket-handler';
import { isAwaitingLogin, openSession, socketHandshake } from './socket-handshake';
import { LOGIN_EVENT } from './socket-login-gate';
import { UserBucketRegistry } from './socket-rate-limiter';

/** setTimeout's ceiling; a token living longer is checked again when the timer fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const EXPIRED_DISCONNECT_DELAY_MS = 250;

/**
 * A socket's session: who it is (the handshake, or the `auth` event for a socket that connected without a
 * token), its rooms, its token's expiry and `auth:refresh`. The one gateway that wires the Socket.IO server to
 * the rest of the node (afterInit); the other gateways on this namespace only handle their events.
 * No CORS: the app's pages are served from the same origin, and RedisIoAdapter refuses handshakes from other sites.
 */
@WebSocketGateway()
export class SessionGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger(SessionGateway.name);
  private readonly userLimits: UserBucketRegistry;
  private readonly loginTimeoutMs: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly authenticator: Authenticator,
    private readonly emitter: SocketEmitter,
    private readonly fanoutNode: FanoutNode,
    private readonly localDelivery: LocalDelivery,
    private readonly presenceBroadcaster: PresenceBroadcaster,
  ) {
    this.loginTimeoutMs = config.SOCKET_AUTH_TIMEOUT_MS;
    this.userLimits = userBudgets(config.SOCKET_MAX_PER_USER);
  }

  afterInit(server: IoServer): void {
    this.emitter.attach(server);
    this.fanoutNode.watchRooms(server.of('/').adapter);
    this.localDelivery.attach(server.of('/'));
    server.use(socketHandshake(this.authenticator, this.fanoutNode, this.userLimits));
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
}
