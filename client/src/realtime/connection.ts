import type { ClientToServerEvents, ServerToClientEvents } from '@contracts/socket-events';
import { type ManagerOptions, type Socket, type SocketOptions, io } from 'socket.io-client';
import { proxy } from 'valtio';

/** After the server drops the socket, reconnect after 1–2 s. */
export const SERVER_DROP_RETRY_MS = 1_000;

export type ParleySocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type RealtimeStatus = 'idle' | 'connecting' | 'connected' | 'disconnected';

/** connected: screens take pushes; anything else: they fall back to polling (5 s messages, 10 s unread). */
export const realtimeStore = proxy<{ status: RealtimeStatus }>({ status: 'idle' });

export const isRealtimeConnected = (): boolean => realtimeStore.status === 'connected';

export interface RealtimeDeps {
  getToken: () => string | null;
  /** Refreshes the access token; false when the session is over. */
  refreshToken: () => Promise<boolean>;
  open?: (options: Partial<ManagerOptions & SocketOptions>) => ParleySocket;
}

/** One authenticated socket per tab; reconnects with a refreshed token when the server refuses the old one. */
export function createRealtimeConnection(deps: RealtimeDeps) {
  let socket: ParleySocket | null = null;
  let refreshing = false;
  const open = deps.open ?? ((options) => io(options) as ParleySocket);

  const recoverFromUnauthorized = async () => {
    if (refreshing || !socket) return;
    refreshing = true;
    try {
      if (await deps.refreshToken()) socket?.connect();
    } finally {
      refreshing = false;
    }
  };

  return {
    connect(): ParleySocket {
      if (socket) return socket;
      realtimeStore.status = 'connecting';
      socket = open({
        path: '/socket.io',
        transports: ['websocket'],
        // Read at every (re)connection, so a reconnect always carries the current token.
        auth: (cb: (data: object) => void) => cb({ token: deps.getToken() }),
        reconnection: true,
      });
      socket.on('connect', () => {
        realtimeStore.status = 'connected';
      });
      socket.on('disconnect', (reason: string) => {
        realtimeStore.status = 'disconnected';
        // socket.io reconnects by itself after a network loss, but not when the server dropped the socket
        // (a restart's goodbye, an expired token): come back after a moment, with the current token.
        if (reason === 'io server disconnect') {
          const dropped = socket;
          setTimeout(
            () => {
              if (socket && socket === dropped && !socket.connected) socket.connect();
            },
            SERVER_DROP_RETRY_MS + Math.random() * SERVER_DROP_RETRY_MS,
          );
        }
      });
      socket.on('connect_error', (err: Error) => {
        realtimeStore.status = 'disconnected';
        // A refused handshake is not retried by socket.io itself.
        if (err.message === 'unauthorized') void recoverFromUnauthorized();
      });
      socket.on('auth:expired', () => void recoverFromUnauthorized());
      return socket;
    },
    /** Hands a refreshed token to the live socket so the server keeps it open. */
    updateToken(token: string): void {
      if (socket?.connected) socket.emit('auth:refresh', { token }, () => undefined);
    },
    disconnect(): void {
      socket?.removeAllListeners();
      socket?.disconnect();
      socket = null;
      realtimeStore.status = 'idle';
    },
    get socket(): ParleySocket | null {
      return socket;
    },
  };
}

export type RealtimeConnection = ReturnType<typeof createRealtimeConnection>;
