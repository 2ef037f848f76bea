import { Logger } from '@nestjs/common';
import type { Socket } from 'socket.io';
import { Ack } from '#shared/contracts/socket-events';
import { AuthUser } from '#shared/contracts/auth';
import { ErrorEnvelope, ErrorKey, unauthorized } from '../common/errors';
import { toEnvelope } from '../common/filters/error-envelope.filter';
import { UserBuckets, UserLease } from './socket-rate-limiter';

/** What a connection carries between events. */
export interface SocketState {
  user: AuthUser;
  tokenExpiresAt: number;
  expiryTimer?: NodeJS.Timeout;
  /** set when the token ran out; the socket is about to be dropped and answers nothing more */
  expired?: boolean;
  /** send (and edit), typing, sync and watches: the user's budgets, shared by all their sockets on this node */
  userLimits: UserBuckets;
  /** this socket's place among the user's sockets on this node, and its hold on userLimits */
  lease: UserLease;
  /**
   * What this connection's watches are recorded under: its socket id, made unique again for a recovered socket
   * (which keeps the dropped one's id), so the release of the dropped connection's watches cannot end a watch
   * the new connection starts meanwhile.
   */
  watchId: string;
  /** made on first use: most sockets never type or watch, and an empty Map and Set cost about 1 KB per socket */
  typingAt?: Map<string, number>;
  watching?: Set<string>;
}

/**
 * Per-connection state lives beside the socket, not in socket.data: socket.data is serialised into Redis
 * for connection-state recovery, and timers and buckets don't serialise.
 */
const states = new WeakMap<Socket, SocketState>();

export function attachState(socket: Socket, state: SocketState): void {
  states.set(socket, state);
  socket.data = { userCode: state.user.code };
}

/** The socket's state; only sockets that passed the handshake have one. */
export function stateOf(socket: Socket): SocketState {
  const state = states.get(socket);
  if (!state) throw new Error('socket without state');
  return state;
}

/** The state of a socket whose token is still valid; 401 otherwise. */
export function liveStateOf(socket: Socket): SocketState {
  const state = stateOf(socket);
  if (state.expired || Date.now() >= state.tokenExpiresAt) throw unauthorized(ErrorKey.SessionExpired);
  return state;
}

export const hasState = (socket: Socket): boolean => states.has(socket);

const logger = new Logger('Socket');

/**
 * Runs an event handler and turns its outcome into the acknowledgement: the result as { ok: true, ... } or
 * any failure as { ok: false, error } with the REST error envelope. Nothing a client sends can throw past here.
 */
export async function respond<T extends object>(run: () => Promise<T>): Promise<Ack<T>> {
  try {
    return { ok: true, ...(await run()) };
  } catch (err) {
    return refusalAck(err);
  }
}

/** The error acknowledgement: the same envelope REST answers ({ code, message, data? }, brokenRules on a 422). */
export function refusalAck(err: unknown): { ok: false; error: ErrorEnvelope } {
  const { envelope } = toEnvelope(err);
  // Refusals under load are counted and logged by SendAdmission, not one line each.
  if (envelope.message !== ErrorKey.Overloaded) {
    if (envelope.code === 503) logger.warn(`socket handler: dependency unavailable: ${(err as Error).message}`);
    else if (envelope.code >= 500) logger.error({ err }, 'socket handler failed');
  }
  return { ok: false, error: envelope };
}
