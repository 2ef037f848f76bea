import { Logger } from '@nestjs/common';
import type { MessageMappingProperties } from '@nestjs/websockets';
import type { Observable } from 'rxjs';
import type { Socket } from 'socket.io';
import { traceSocketEvent } from '#shared/telemetry/socket-event-span';
import { eventSettled, eventStarted } from './socket-inflight';
import { tallySend } from './send-tally';

const logger = new Logger('SocketMessages');

type Transform = (data: unknown) => Observable<unknown>;

/**
 * Binds the gateway's @SubscribeMessage handlers to one socket with a plain listener per event. Nest's IoAdapter
 * builds an rxjs pipeline per handler per socket (fromEvent, mergeMap, takeUntil a shared disconnect stream) that
 * stays alive as long as the socket: about 48 KB of heap for our eleven handlers, most of an idle socket's cost.
 * Answers go out as they do there: `{ event, data }` is emitted, anything else non-null acknowledges.
 */
export function bindMessageHandlers(socket: Socket, handlers: MessageMappingProperties[], transform: Transform): void {
  for (const { message, callback: handle, isAckHandledManually } of handlers) {
    const callback = traceSocketEvent(String(message), handle);
    const tally = message === 'message:send' ? tallySend : undefined;
    socket.on(message as string, (...args: unknown[]) => {
      const { data, ack } = splitAck(args);
      eventStarted(socket);
      transform(callback(data, ack)).subscribe({
        next: (response) => {
          if (response === null || response === undefined) return;
          const reply = response as { event?: string; data?: unknown };
          if (reply.event) return void socket.emit(reply.event, reply.data);
          tally?.(response);
          if (!isAckHandledManually && ack) ack(response);
        },
        // rxjs would rethrow this on a timer and end the process; the gateway's handlers answer errors themselves.
        error: (err: unknown) => {
          eventSettled(socket);
          logger.error({ err }, `socket event ${String(message)} failed`);
        },
        complete: () => eventSettled(socket),
      });
    });
  }
}

/** The event's arguments as Nest passes them: the data (one value or the list) and the acknowledgement callback. */
function splitAck(args: unknown[]): { data: unknown; ack?: (response: unknown) => void } {
  const last = args[args.length - 1];
  const ack = typeof last === 'function' ? (last as (response: unknown) => void) : undefined;
  const rest = ack ? args.slice(0, -1) : args;
  return { data: rest.length <= 1 ? rest[0] : rest, ack };
}
