import { EventEmitter } from 'node:events';
import type { ParleySocket } from './connection';
import { subscribeSocket } from './subscribe';

const fakeSocket = () => {
  const emitter = new EventEmitter();
  const socket = { on: emitter.on.bind(emitter), off: emitter.off.bind(emitter) } as unknown as Pick<ParleySocket, 'on' | 'off'>;
  return { emitter, socket };
};

describe('subscribeSocket', () => {
  it('listens with every handler of the map and stops exactly those, leaving other listeners', () => {
    const { emitter, socket } = fakeSocket();
    const presence = jest.fn();
    const connect = jest.fn();
    const other = jest.fn();
    emitter.on('presence', other);
    const stop = subscribeSocket(socket, { presence, connect, typing: undefined });
    emitter.emit('presence', { userCode: 'U_a' });
    emitter.emit('connect');
    expect(presence).toHaveBeenCalledWith({ userCode: 'U_a' });
    expect(connect).toHaveBeenCalledTimes(1);
    expect(emitter.listenerCount('typing')).toBe(0);

    stop();
    emitter.emit('presence', { userCode: 'U_b' });
    expect(presence).toHaveBeenCalledTimes(1);
    expect(other).toHaveBeenCalledTimes(2);
    expect(emitter.listenerCount('connect')).toBe(0);
  });
});
