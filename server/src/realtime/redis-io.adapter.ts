import { INestApplicationContext, Logger } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import type { MessageMappingProperties } from '@nestjs/websockets';
import type { Observable } from 'rxjs';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { RedisClientType } from 'redis';
import type { Server, ServerOptions, Socket } from 'socket.io';
import { RedisService } from '#shared/redis/redis.service';
import { bindMessageHandlers } from './socket-message-binding';

/** Largest event a client may send: a 10,000-character message in UTF-8 plus its envelope. */
export const MAX_SOCKET_PAYLOAD = 64 * 1024;

/**
 * Socket.IO over the Redis streams adapter, so replicas share rooms and connection-state recovery
 * works across nodes. Every Redis name carries the deployment's prefix.
 */
export class RedisIoAdapter extends IoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly redis: RedisService,
  ) {
    super(app);
  }

  createIOServer(port: number, options?: ServerOptions): Server {
    const server: Server = super.createIOServer(port, {
      ...options,
      maxHttpBufferSize: MAX_SOCKET_PAYLOAD,
      pingInterval: 20_000,
      pingTimeout: 20_000,
      connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000, skipMiddlewares: false },
    });
    server.adapter(
      createAdapter(withObservedFireAndForget(this.redis.client), {
        streamName: this.redis.key('socket.io'),
        channelPrefix: this.redis.key('socket.io'),
        sessionKeyPrefix: this.redis.key('sio', 'session:'),
        maxLen: 10_000,
        // The reading connection only notices a shutdown when its blocking read returns.
        blockTimeInMs: 1000,
        onlyPlaintext: true,
      }),
    );
    return server;
  }

  override bindMessageHandlers(socket: Socket, handlers: MessageMappingProperties[], transform: (data: unknown) => Observable<unknown>): void {
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
