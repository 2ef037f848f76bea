import { randomBytes } from 'node:crypto';
import type { Socket } from 'socket.io';
import { userRoom } from '#shared/contracts/socket-events';
import { AccessTokenClaims, AuthUser } from '#shared/contracts/auth';
import { ErrorKey } from '../common/errors';
import { Authenticator } from '../modules/auth/authenticator';
import { FanoutNode } from '../fanout/fanout-node';
import { takeRecovery } from './session-recovery';
import { attachState } from './socket-handler';
import { UserBucketRegistry } from './socket-rate-limiter';

const MAX_TOKEN_LENGTH = 4096;

type Next = (err?: Error) => void;

/** A refused handshake's connect_error: `message` for people, `data` the error envelope. */
function refusal(message: string, data?: object): Error {
  return Object.assign(new Error(message), data ? { data } : {});
}

const unauthorized = () => refusal('unauthorized');
const tooManySockets = (maxSockets: number) => refusal('too many sockets', { code: 429, message: ErrorKey.TooManyRequests, data: { maxSockets } });

/** Sockets that connected without a token and may only send `auth` until they log in (or the deadline drops them). */
const awaitingLogin = new WeakSet<Socket>();
export const isAwaitingLogin = (socket: Socket): boolean => awaitingLogin.has(socket);

/**
 * Who may open a socket: the same access token as the REST API (in `auth.token`), a recovered session only by
 * its own user, and at most `maxSockets` sockets per user on this node. Refusals are connect_errors
 * (`unauthorized`, `too many sockets`); nothing of a restored session reaches a refused connection. A handshake
 * with no token at all (and no session to recover) connects awaiting login: it logs in with the `auth` event.
 */
export function socketHandshake(authenticator: Authenticator, fanoutNode: FanoutNode, userLimits: UserBucketRegistry) {
  return (socket: Socket, next: Next): void => {
    // Taken before anything can fail, so a refused handshake leaves the session's missed packets unsent.
    const recovery = takeRecovery(socket);
    const token: unknown = socket.handshake.auth?.token;
    if (token === undefined && !recovery) {
      awaitingLogin.add(socket);
      return next();
    }
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return next(unauthorized());
    authenticator.authenticate(token).then(
      ({ user, claims }) => {
        // Another user's pid and offset: their socket id, rooms and missed packets are not the caller's.
        if (recovery && recovery.owner !== user.code) return next(unauthorized());
        // Gone while we authenticated: no `close` is left to come, so nothing is held for it.
        if (socket.conn.readyState !== 'open') return next(unauthorized());
        const watchId = recovery ? `${socket.id}.${randomBytes(6).toString('base64url')}` : socket.id;
        const opened = openSession(socket, user, claims, watchId, fanoutNode, userLimits);
        if (!opened) return next(tooManySockets(userLimits.maxSockets));
        void opened.then(() => {
          recovery?.replay();
          next();
        });
      },
      () => next(unauthorized()),
    );
  };
}

/**
 * Gives the socket its user: takes a place among the user's sockets on this node (null when they hold
 * `maxSockets` already) and registers the user's room for this node before resolving, so any message routed
 * after the client's sync started reaches this node (docs/message-path.md, "Registered before connected").
 */
export function openSession(
  socket: Socket,
  user: AuthUser,
  claims: AccessTokenClaims,
  watchId: string,
  fanoutNode: FanoutNode,
  userLimits: UserBucketRegistry,
): Promise<void> | null {
  const lease = userLimits.acquire(user.code);
  if (!lease) return null;
  // The gateway releases it on disconnect; a connection that closes before `connect` never disconnects.
  // The listener goes with the socket, so sockets opened and closed on one connection leave none behind.
  const closed = () => lease.release();
  socket.conn.once('close', closed);
  socket.once('disconnect', () => socket.conn.off('close', closed));
  awaitingLogin.delete(socket);
  attachState(socket, { user, tokenExpiresAt: claims.exp * 1000, userLimits: lease.buckets, lease, watchId });
  return fanoutNode.subscribeAhead(userRoom(user.code), socket.id);
}
