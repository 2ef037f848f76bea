import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Namespace } from 'socket.io';
import { DeliveryOrder } from './delivery-order';
import { decodeFanoutEntry } from './fanout-entry';
import { FanoutNode } from './fanout-node';
import { SocketWriteBatch } from './socket-write-batch';
import { UNREAD_COUNT_PACKET, UnreadCountCoalescer } from './unread-count-coalescer';

/** A user's unread counts reach each of their sockets at most once per this window (ms). */
export const UNREAD_COUNT_WINDOW_MS = 100;
/** How a Socket.IO packet of a `message:new` event begins: the message payload's first field is its code. */
const NEW_MESSAGE_PACKET = '2["message:new",{"code":"';
/** A sender's socket is remembered this long at most for its message (ms): a message not delivered here by then never will be. */
const SKIP_FOR_MS = 60_000;

/**
 * The fan-out's last step on a node: every entry that reaches this node, from its inbox (InboxReader), in the
 * answer of one of its own gate calls (FanoutPublisher) or from the recent stream after a re-registration, is put
 * in the order Redis made it (`order`, see DeliveryOrder) and written to this node's sockets in its rooms; except
 * a new message to the socket it was sent from (`skipSocket`: that socket has it in its acknowledgement), and with
 * each user's unread counts coalesced (UnreadCountCoalescer).
 */
@Injectable()
export class LocalDelivery implements OnModuleInit, OnModuleDestroy {
  private namespace?: Namespace;
  readonly order = new DeliveryOrder((entries) => this.deliverAll(entries));
  private readonly counts = new UnreadCountCoalescer();
  private countTimer?: NodeJS.Timeout;
  /** Message code → the socket it was sent from; in two generations, the older dropped every SKIP_FOR_MS / 2. */
  private skips = new Map<string, string>();
  private olderSkips = new Map<string, string>();
  private skipTimer?: NodeJS.Timeout;

  constructor(private readonly node: FanoutNode) {}

  onModuleInit(): void {
    this.countTimer = setInterval(() => this.writeCoalescedCounts(), UNREAD_COUNT_WINDOW_MS);
    this.countTimer.unref();
    this.skipTimer = setInterval(() => {
      this.olderSkips = this.skips;
      this.skips = new Map();
    }, SKIP_FOR_MS / 2);
    this.skipTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.countTimer);
    clearInterval(this.skipTimer);
    this.writeCoalescedCounts();
  }

  /** The sockets to deliver to: the gateway's namespace, once the socket server is up. */
  attach(namespace: Namespace): void {
    this.namespace = namespace;
  }

  /** The new message of this code is not written to this socket (it was sent from there). */
  skipSocket(messageCode: string, socketId: string): void {
    this.skips.set(messageCode, socketId);
  }

  /** Writes entries to this node's sockets in their rooms, in the order given. */
  deliverAll(entries: readonly (string | undefined)[]): void {
    const namespace = this.namespace;
    if (!namespace) return;
    const writes = new SocketWriteBatch(namespace);
    try {
      for (const entry of entries) {
        this.node.counters.read++;
        if (!entry) continue;
        for (const { rooms, packet } of decodeFanoutEntry(entry)) {
          this.node.counters.delivered++;
          if (rooms.length === 1 && packet.startsWith(UNREAD_COUNT_PACKET)) {
            const now = this.counts.offer(rooms[0], packet);
            if (now) writes.send(rooms, now);
          } else writes.send(rooms, packet, this.skippedSocket(packet));
        }
      }
    } finally {
      writes.release();
    }
  }

  private skippedSocket(packet: string): string | undefined {
    if ((this.skips.size === 0 && this.olderSkips.size === 0) || !packet.startsWith(NEW_MESSAGE_PACKET)) return undefined;
    const code = packet.slice(NEW_MESSAGE_PACKET.length, packet.indexOf('"', NEW_MESSAGE_PACKET.length));
    const socketId = this.skips.get(code) ?? this.olderSkips.get(code);
    if (socketId) {
      this.skips.delete(code);
      this.olderSkips.delete(code);
    }
    return socketId;
  }

  private writeCoalescedCounts(): void {
    const due = this.counts.closeWindows();
    if (!due.length || !this.namespace) return;
    const writes = new SocketWriteBatch(this.namespace);
    try {
      for (const [room, packet] of due) writes.send([room], packet);
    } finally {
      writes.release();
    }
  }
}
