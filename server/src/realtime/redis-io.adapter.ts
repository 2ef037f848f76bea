import { INestApplicationContext, Logger } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type { MessageMappingProperties } from '@nestjs/websockets';
import type { Observable } from 'rxjs';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { RedisClientType } from 'redis';
import type { Namespace, Server, ServerOptions, Socket } from 'socket.io';
import { AppConfig } from '#shared/config/config.schema';
import { APP_CONFIG } from '#shared/config/config.module';
import { RedisService } from '#shared/redis/redis.service';
import { ErrorKey } from '../common/errors';
import { DrainState } from '../modules/lifecycle/drain-state';
import { crossSiteCheck } from '../common/middleware/http-hardening';
import { guardSessionRecovery } from './session-recovery';
import { bindMessageHandlers } from './socket-message-binding';
import { limitEventSize, MAX_SOCKET_FRAME_BYTES } from './socket-event-size';
import { isAwaitingLogin } from './socket-handshake';
import { requireLogin } from './socket-login-gate';

/**
 * Socket.IO over the Redis streams adapter, so replicas share rooms and connection-state recovery
 * works across nodes (restoring only what the server decides now, see session-recovery.ts). Every Redis
 * name carries the deployment's prefix. A handshake from a page of another site is refused (403), and no
 * CORS headers are sent: the client is served from the same origin, like the REST API.
 */
export class RedisIoAdapter extends IoAdapter {
  private readonly crossSite: ReturnType<typeof crossSiteCheck>;
  private readonly drainState: DrainState;
  private readonly guarded = new WeakSet<Socket>();

  constructor(
    app: INestApplicationContext,
    private readonly redis: RedisService,
  ) {
    super(app);
    this.crossSite = crossSiteCheck(app.get<AppConfig>(APP_CONFIG).PUBLIC_URL);
    this.drainState = app.get(DrainState);
  }

  createIOServer(port: number, options?: ServerOptions): Server {
    // A draining node takes no new connection: the client's own retry (a transport error) finds another node.
    const allowRequest: ServerOptions['allowRequest'] = (req, answer) => {
      if (this.drainState.draining) return answer('draining', false);
      return this.crossSite(req) ? answer(ErrorKey.CrossOrigin, false) : answer(null, true);
    };
    const server: Server = super.createIOServer(port, {
      ...options,
      maxHttpBufferSize: MAX_SOCKET_FRAME_BYTES,
      pingInterval: 20_000,
      pingTimeout: 20_000,
      connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000, skipMiddlewares: false },
      cors: undefined,
      allowRequest,
    });
    const streams = createAdapter(withObservedFireAndForget(this.redis.client), {
      streamName: this.redis.key('socket.io'),
      channelPrefix: this.redis.key('socket.io'),
      sessionKeyPrefix: this.redis.key('sio', 'session:'),
      maxLen: 10_000,
      // The reading connection only notices a shutdown when its blocking read returns.
      blockTimeInMs: 1000,
      onlyPlaintext: true,
    });
    // Socket.IO calls it with `new`, so a function (not an arrow) that returns the adapter.
    server.adapter(function guardedAdapter(nsp: Namespace) {
      return guardSessionRecovery(streams(nsp));
    } as unknown as Parameters<Server['adapter']>[0]);
    return server;
  }

  /** Called once per gateway for each socket; the socket's own guards go on once, before the first gateway's handlers. */
  override bindMessageHandlers(socket: Socket, handlers: MessageMappingProperties[], transform: (data: unknown) => Observable<unknown>): void {
    if (!this.guarded.has(socket)) {
      this.guarded.add(socket);
      limitEventSize(socket);
      if (isAwaitingLogin(socket)) requireLogin(socket);
    }
    bindMessageHandlers(socket, handlers, transform);
  }
}

/** Commands the streams adapter starts without awaiting or catching them. */
const FORGOTTEN_BY_ADAPTER = new Set<PropertyKey>(['set', 'publish', 'sPublish']);
const adapterLogger = new Logger('RedisIoAdapter');

/**
 * The streams adapter saves a dropped socket's session (SET) and publishes pub/sub messages without awaiting
 * them, so while Redis is away or LOADING their failures would be unhandled rejections that end the process.
 * This view of the client logs those failures instead; callers that do await still see them.
 */
function withObservedFireAndForget(client: RedisClientType): RedisClientType {
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      if (!FORGOTTEN_BY_ADAPTER.has(prop)) return bound;
      return (...args: unknown[]) => {
        const result = bound(...args);
        if (result instanceof Promise) result.catch((err: unknown) => adapterLogger.warn(`socket.io adapter ${String(prop)}: ${(err as Error).message}`));
        return result;
      };
    },
  });
}
