import type { Socket } from 'socket.io';
import { unauthorized } from '../common/errors';
import { hasState, refusalAck } from './socket-handler';

/** The one event a socket that connected without a token may send before it logs in. */
export const LOGIN_EVENT = 'auth';

/**
 * For a socket that connected awaiting login: until it has logged in, every event but `auth` is refused (a 401
 * acknowledgement; an event without one is dropped) and never reaches a handler. Sockets that logged in with the
 * handshake never get this middleware.
 */
export function requireLogin(socket: Socket): void {
  socket.use((event, next) => {
    if (hasState(socket) || event[0] === LOGIN_EVENT) return next();
    const ack = event[event.length - 1] as unknown;
    if (typeof ack === 'function') ack(refusalAck(unauthorized()));
  });
}
