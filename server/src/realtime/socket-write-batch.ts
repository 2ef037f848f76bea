import type { Namespace } from 'socket.io';

/**
 * The parts of engine.io's connection and ws's socket that batching relies on. They are not public API, so
 * each is checked before use and a socket that doesn't look like this is simply written the usual way.
 */
interface BatchableConnection {
  readyState: string;
  flush(): void;
  transport: {
    name: string;
    writable: boolean;
    socket?: { _socket?: { cork(): void; uncork(): void } };
  };
}

function batchable(conn: unknown): conn is BatchableConnection {
  const c = conn as Partial<BatchableConnection> | undefined;
  return typeof c?.flush === 'function' && c.transport?.name === 'websocket' && typeof c.transport.socket?._socket?.cork === 'function';
}

/**
 * Writes everything a delivery batch sends to one WebSocket with one system call.
 *
 * Socket.IO writes each packet as its own frame and `write`, and a socket still writing queues the next packet
 * until the first is done, so a recipient of a message and its new unread count costs two system calls, and
 * those dominate the server's CPU time under load. While a batch runs, the sockets it reaches are marked busy, so
 * engine.io queues their packets; `release` then hands each socket's queue to its transport at once inside a
 * cork of the TCP socket. Everything between `hold` and `release` must run synchronously, in one tick.
 */
export class SocketWriteBatch {
  private readonly held = new Set<BatchableConnection>();

  constructor(private readonly namespace: Namespace) {}

  /** Queues, until `release`, the writes of this node's sockets in these rooms. */
  hold(rooms: readonly string[]): void {
    const { adapter, sockets } = this.namespace;
    for (const room of rooms) {
      for (const id of adapter.rooms.get(room) ?? []) {
        const conn: unknown = sockets.get(id)?.conn;
        // A socket already writing keeps its own queue: engine.io flushes it when that write ends.
        if (!batchable(conn) || this.held.has(conn) || !conn.transport.writable) continue;
        conn.transport.writable = false;
        this.held.add(conn);
      }
    }
  }

  /** Writes each held socket's queued packets in one go. */
  release(): void {
    for (const conn of this.held) {
      conn.transport.writable = true;
      const tcp = conn.transport.socket?._socket;
      tcp?.cork();
      try {
        conn.flush();
      } finally {
        tcp?.uncork();
      }
    }
    this.held.clear();
  }
}
