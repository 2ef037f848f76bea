import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import type { MessageMappingProperties } from '@nestjs/websockets';
import { from, Observable, of } from 'rxjs';
import type { Socket } from 'socket.io';
import { bindMessageHandlers } from './socket-message-binding';

/** Nest's transform: whatever the handler returned, as an observable. */
const transform = (result: unknown): Observable<unknown> => (result instanceof Promise ? from(result) : of(result));

function fakeSocket() {
  const socket = new EventEmitter() as EventEmitter & { emitted: unknown[][] };
  socket.emitted = [];
  const emit = socket.emit.bind(socket);
  return Object.assign(socket, {
    // What the server sends to the client is recorded; incoming events are raised with `receive`.
    emit: (...args: unknown[]) => (socket.emitted.push(args), true),
    receive: (event: string, ...args: unknown[]) => emit(event, ...args),
  });
}

const handler = (message: string, callback: (data: unknown, ack?: unknown) => unknown, isAckHandledManually = false) =>
  ({ message, callback, isAckHandledManually, methodName: message }) as unknown as MessageMappingProperties;

describe('bindMessageHandlers', () => {
  it('passes the data and acknowledges with the handler result', async () => {
    const socket = fakeSocket();
    const seen: unknown[] = [];
    bindMessageHandlers(socket as unknown as Socket, [handler('ping', async (data) => (seen.push(data), { ok: true }))], transform);
    const ack = jest.fn();
    socket.receive('ping', { n: 1 }, ack);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual([{ n: 1 }]);
    expect(ack).toHaveBeenCalledWith({ ok: true });
  });

  it('hands over the data as Nest does: undefined without arguments, the list for several', () => {
    const socket = fakeSocket();
    const seen: unknown[] = [];
    bindMessageHandlers(socket as unknown as Socket, [handler('e', (data) => void seen.push(data))], transform);
    socket.receive('e');
    socket.receive('e', jest.fn());
    socket.receive('e', 1, 2);
    socket.receive('e', 1, 2, jest.fn());
    socket.receive('e', [1, 2]);
    expect(seen).toEqual([undefined, undefined, [1, 2], [1, 2], [1, 2]]);
  });

  it('emits { event, data } answers, and sends nothing for null or for handlers that acknowledge themselves', async () => {
    const socket = fakeSocket();
    bindMessageHandlers(
      socket as unknown as Socket,
      [handler('a', () => ({ event: 'b', data: 1 })), handler('n', () => null), handler('m', () => ({ ok: true }), true)],
      transform,
    );
    const ack = jest.fn();
    socket.receive('a', {}, ack);
    socket.receive('n', {}, ack);
    socket.receive('m', {}, ack);
    await new Promise((r) => setImmediate(r));
    expect(socket.emitted).toEqual([['b', 1]]);
    expect(ack).not.toHaveBeenCalled();
  });

  it('logs a failing handler instead of throwing past the socket', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const socket = fakeSocket();
    bindMessageHandlers(socket as unknown as Socket, [handler('x', async () => Promise.reject(new Error('boom')))], transform);
    socket.receive('x', {});
    await new Promise((r) => setImmediate(r));
    expect(socket.emitted).toEqual([]);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), 'socket event x failed');
    logged.mockRestore();
  });
});
