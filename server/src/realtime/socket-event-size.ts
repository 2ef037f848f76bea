import type { Socket } from 'socket.io';
import { AppError, ErrorKey } from '../common/errors';
import { refusalAck } from './socket-handler';

/** Largest event a client may send: a 10,000-character message in UTF-8 plus its envelope. */
export const MAX_SOCKET_EVENT_BYTES = 64 * 1024;
/**
 * The transports' own ceiling (engine.io's maxHttpBufferSize: one WebSocket frame, one long-polling POST): past
 * it the connection is closed before the frame is buffered whole. Between the two, the event is read and answered
 * with a 413 acknowledgement, and the connection stays.
 */
export const MAX_SOCKET_FRAME_BYTES = 4 * MAX_SOCKET_EVENT_BYTES;

// socket.io-parser packet types, the first character of a text frame: an event, and an event with binary attachments.
const EVENT = '2';
const BINARY_EVENT = '5';

interface EnginePacket {
  type: string;
  data?: unknown;
}

/**
 * Refuses events over MAX_SOCKET_EVENT_BYTES with a 413 acknowledgement (`data.maxBytes`) instead of running them.
 * Sizes are taken from the frames as they arrive (engine.io's `packet`), queued, and matched to the events in
 * order: socket.io decodes frames in arrival order and hands each event to the middleware (this one first) in
 * the same order, a tick later, so a long-polling POST carrying several events is measured event by event.
 */
export function limitEventSize(socket: Socket): void {
  const sizes: number[] = [];
  socket.conn.on('packet', (packet: EnginePacket) => {
    if (packet.type !== 'message') return;
    const { data } = packet;
    if (typeof data === 'string') {
      if (data[0] === EVENT || data[0] === BINARY_EVENT) sizes.push(byteSize(data));
    } else if (sizes.length && data && typeof (data as ArrayBufferLike).byteLength === 'number') {
      // A binary attachment belongs to the event frame before it.
      sizes[sizes.length - 1] += (data as ArrayBufferLike).byteLength;
    }
  });
  socket.use((event, next) => {
    const size = sizes.shift() ?? 0;
    if (size <= MAX_SOCKET_EVENT_BYTES) return next();
    const ack = event[event.length - 1] as unknown;
    if (typeof ack === 'function') ack(refusalAck(new AppError(413, ErrorKey.PayloadTooLarge, { maxBytes: MAX_SOCKET_EVENT_BYTES })));
  });
}

/** UTF-8 bytes of a frame; only counted when it could be over the limit (a UTF-16 unit is at most 3 bytes). */
function byteSize(text: string): number {
  return text.length * 3 <= MAX_SOCKET_EVENT_BYTES ? text.length : Buffer.byteLength(text);
}
