import { Logger } from '@nestjs/common';
import type { Namespace } from 'socket.io';

/**
 * The library versions the direct write was checked against: engine.io's connection and WebSocket transport,
 * and the ws that engine.io loads (its Sender and socket fields). socket-write-batch.spec.ts fails when the
 * installed ones differ, and test/e2e/socket-write-batch.e2e-spec.ts checks the fields on a real connection.
 */
export const DIRECT_WRITE_VERIFIED_WITH = { 'socket.io': '4.8.3', 'engine.io': '6.6.12', ws: '8.21.3' } as const;

/** The TCP socket under a WebSocket connection (net.Socket, as ws keeps it). */
interface TcpSocket {
  writable: boolean;
  destroyed: boolean;
  write(chunk: Buffer): boolean;
}

/**
 * The parts of engine.io's connection, its WebSocket transport and ws's socket and sender that a direct write
 * relies on. They are not public API, so each is checked before use (`directWriter`), and a connection that
 * doesn't look like this is written the usual way (with one warning: a library upgrade costs speed, not messages).
 */
interface DirectConnection {
  readyState: string;
  writeBuffer: unknown[];
  transport: {
    name: string;
    socket?: {
      readyState: number;
      _socket?: TcpSocket;
      _sender?: { _state: number; _queue: unknown[]; _firstFragment: boolean; _extensions: Record<string, unknown> };
    };
  };
}

/** engine.io's connection as a delivery writes to it (public API). */
interface EngineConnection {
  readyState: string;
  write(packet: string): void;
}

const WS_OPEN = 1;
/** ws's Sender state when nothing is being compressed or read before it is sent. */
const SENDER_IDLE = 0;
/** The only extension ws negotiates: a compressed frame is not what `webSocketTextFrame` writes. */
const PER_MESSAGE_DEFLATE = 'permessage-deflate';
/** engine.io's packet type for a message, written before the Socket.IO packet. */
const ENGINE_MESSAGE = '4';

const logger = new Logger('SocketWriteBatch');
let warnedUnknownShape = false;

/**
 * Whether an open WebSocket connection has the private fields a direct write reads, with the types it expects.
 * Not when a library upgrade renamed or removed one: the connection is then written through engine.io.
 */
function hasKnownShape(c: Partial<DirectConnection>): boolean {
  const ws = c.transport?.socket;
  const sender = ws?._sender;
  const tcp = ws?._socket;
  return (
    Array.isArray(c.writeBuffer) &&
    typeof ws?.readyState === 'number' &&
    typeof tcp?.write === 'function' &&
    typeof tcp.writable === 'boolean' &&
    typeof tcp.destroyed === 'boolean' &&
    typeof sender?._state === 'number' &&
    Array.isArray(sender._queue) &&
    typeof sender._firstFragment === 'boolean' &&
    typeof sender._extensions === 'object' &&
    sender._extensions !== null
  );
}

/**
 * The TCP socket a frame may be written to directly: a WebSocket connection with nothing queued before it,
 * in engine.io (packets waiting for a write in flight) or in ws (a fragmented or compressed message), so the
 * frame lands in the stream right after whatever was written before it. Null otherwise, and for a connection
 * whose private fields are not the ones this was verified with (DIRECT_WRITE_VERIFIED_WITH).
 */
export function directWriter(conn: unknown): TcpSocket | null {
  const c = conn as Partial<DirectConnection> | undefined;
  if (c?.readyState !== 'open' || c.transport?.name !== 'websocket') return null;
  if (!hasKnownShape(c)) {
    if (!warnedUnknownShape) {
      warnedUnknownShape = true;
      logger.warn(
        `engine.io/ws connections lack the private fields the direct frame write uses (verified with ${JSON.stringify(DIRECT_WRITE_VERIFIED_WITH)}); ` +
          'writing through engine.io instead, which is slower',
      );
    }
    return null;
  }
  const ws = c.transport.socket!;
  const sender = ws._sender!;
  const tcp = ws._socket!;
  if (c.writeBuffer!.length !== 0 || ws.readyState !== WS_OPEN || !tcp.writable || tcp.destroyed) return null;
  if (sender._state !== SENDER_IDLE || sender._queue.length !== 0 || !sender._firstFragment || sender._extensions[PER_MESSAGE_DEFLATE]) return null;
  return tcp;
}

/** One unmasked, unfragmented WebSocket text frame carrying an engine.io message (RFC 6455, section 5.2). */
export function webSocketTextFrame(packet: string): Buffer {
  const length = Buffer.byteLength(packet) + ENGINE_MESSAGE.length;
  const header = length < 126 ? 2 : length < 0x10000 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = 0x81;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(ENGINE_MESSAGE, header, 'latin1');
  frame.write(packet, header + ENGINE_MESSAGE.length, 'utf8');
  return frame;
}

/**
 * Delivers pre-encoded Socket.IO packets to this node's sockets, everything a delivery batch sends to one
 * WebSocket in one write.
 *
 * A packet was encoded once by whoever wrote the delivery (see fanout-entry.ts), and its WebSocket frame is
 * built once here, for all its recipients. Each recipient's frames are gathered and written to its TCP socket
 * in one `write` on `release`: engine.io and ws would queue, frame and write each packet to each socket on
 * their own, two stream writes per frame with a callback each, and that per-packet work was a quarter of the
 * server's time under load. The frame goes in only where nothing is queued before it; any other connection
 * (long-polling, or packets waiting in engine.io) gets the packet through engine.io, which keeps its order.
 * Everything between the first `send` and `release` must run synchronously, in one tick.
 */
export class SocketWriteBatch {
  /** Per socket id reached in this batch: its TCP socket and frames, or its engine.io connection to write through. */
  private readonly targets = new Map<string, { tcp: TcpSocket; frames: Buffer[] } | { engine: EngineConnection }>();
  private readonly reached = new Set<string>();

  constructor(private readonly namespace: Namespace) {}

  /** Writes the packet, once, to each of this node's sockets in these rooms but `except` (gathered until `release`). */
  send(rooms: readonly string[], packet: string, except?: string): void {
    const { adapter, sockets } = this.namespace;
    const dedupe = rooms.length > 1;
    let frame: Buffer | undefined;
    for (const room of rooms) {
      const ids = adapter.rooms.get(room);
      if (!ids) continue;
      for (const id of ids) {
        if (id === except) continue;
        if (dedupe) {
          if (this.reached.has(id)) continue;
          this.reached.add(id);
        }
        let target = this.targets.get(id);
        if (target === undefined) {
          const conn = sockets.get(id)?.conn;
          if (!conn) continue;
          const tcp = directWriter(conn);
          target = tcp ? { tcp, frames: [] } : { engine: conn as unknown as EngineConnection };
          this.targets.set(id, target);
        }
        if ('tcp' in target) target.frames.push((frame ??= webSocketTextFrame(packet)));
        else if (target.engine.readyState === 'open') target.engine.write(packet);
      }
    }
    this.reached.clear();
  }

  /** Writes each socket's gathered frames in one go. */
  release(): void {
    for (const target of this.targets.values()) {
      if (!('tcp' in target) || !target.frames.length || !target.tcp.writable) continue;
      target.tcp.write(target.frames.length === 1 ? target.frames[0] : Buffer.concat(target.frames));
    }
    this.targets.clear();
  }
}
