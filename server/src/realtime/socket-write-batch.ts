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

/** engine.io's connection as a delivery writes to it (public API). */
interface EngineConnection {
  readyState: string;
  write(packet: string): void;
}

function batchable(conn: unknown): conn is BatchableConnection {
  const c = conn as Partial<BatchableConnection> | undefined;
  return typeof c?.flush === 'function' && c.transport?.name === 'websocket' && typeof c.transport.socket?._socket?.cork === 'function';
}

/**
 * Delivers pre-encoded Socket.IO packets to this node's sockets, writing everything a delivery batch sends to
 * one WebSocket with one system call.
 *
 * A packet was encoded once by whoever wrote the delivery (see fanout-stream.ts), so it goes to each socket's
 * engine.io connection as it is, as Socket.IO's own local broadcast does after encoding. Socket.IO writes each
 * packet as its own frame and `write`, and a socket still writing queues the next packet until the first is
 * done, so a recipient of a message and its new unread count would cost two system calls, and those dominate
 * the server's CPU time under load. While a batch runs, the sockets it reaches are marked busy, so engine.io
 * queues their packets; `release` then hands each socket's queue to its transport at once inside a cork of the
 * TCP socket. Everything between the first `send` and `release` must run synchronously, in one tick.
 */
export class SocketWriteBatch {
  private readonly held = new Set<BatchableConnection>();
  private readonly reached = new Set<string>();

  constructor(private readonly namespace: Namespace) {}

  /** Writes the packet, once, to each of this node's sockets in these rooms (queued until `release`). */
  send(rooms: readonly string[], packet: string): void {
    const { adapter, sockets } = this.namespace;
    const dedupe = rooms.length > 1;
    for (const room of rooms) {
      const ids = adapter.rooms.get(room);
      if (!ids) continue;
      for (const id of ids) {
        if (dedupe) {
          if (this.reached.has(id)) continue;
          this.reached.add(id);
        }
        const conn = sockets.get(id)?.conn as unknown as EngineConnection | undefined;
        if (conn?.readyState !== 'open') continue;
        this.hold(conn);
        conn.write(packet);
      }
    }
    this.reached.clear();
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

  private hold(conn: unknown): void {
    // A socket already writing keeps its own queue: engine.io flushes it when that write ends.
    if (!batchable(conn) || this.held.has(conn) || !conn.transport.writable) return;
    conn.transport.writable = false;
    this.held.add(conn);
  }
}
