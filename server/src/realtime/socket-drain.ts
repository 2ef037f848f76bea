import { Injectable, Logger } from '@nestjs/common';
import type { Socket } from 'socket.io';
import { SocketEmitter } from './socket-emitter.service';
import { whenSettled } from './socket-inflight';

/** The longest a socket's unanswered events may hold its disconnect during a drain. */
const SETTLE_TIMEOUT_MS = 5000;

/**
 * Sends this node's sockets elsewhere before the process exits. Each socket is disconnected at a random moment
 * within `spreadMs`, once it owes no acknowledgement: the client hears `io server disconnect` and connects again
 * after a random 1–2 s (client/src/realtime/connection.ts), so a node's clients do not all come back at once and
 * none waits for an answer that will never come. New handshakes are refused meanwhile (RedisIoAdapter), so a
 * reconnecting client reaches another node (or this one's successor).
 */
@Injectable()
export class SocketDrain {
  private readonly logger = new Logger(SocketDrain.name);

  constructor(private readonly emitter: SocketEmitter) {}

  async drain(spreadMs: number): Promise<void> {
    const io = this.emitter.io;
    if (!io) return;
    const sockets = [...io.of('/').sockets.values()];
    if (sockets.length) this.logger.log(`draining: sending ${sockets.length} sockets elsewhere within ${spreadMs} ms`);
    await Promise.all(sockets.map((socket) => this.sendAway(socket, Math.random() * spreadMs)));
  }

  private async sendAway(socket: Socket, delayMs: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await whenSettled(socket, SETTLE_TIMEOUT_MS);
    if (socket.connected) socket.disconnect(true);
  }
}
