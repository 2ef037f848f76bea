import { Injectable } from '@nestjs/common';
import type { Namespace } from 'socket.io';
import { DeliveryOrder } from './delivery-order';
import { decodeFanoutEntry } from './fanout-entry';
import { FanoutNode } from './fanout-node';
import { SocketWriteBatch } from './socket-write-batch';

/**
 * The fan-out's last step on a node: every entry that reaches this node, from its inbox (InboxReader), in the
 * answer of one of its own gate calls (FanoutPublisher) or from the recent stream after a re-registration, is put
 * in the order Redis made it (`order`, see DeliveryOrder) and written to this node's sockets in its rooms.
 */
@Injectable()
export class LocalDelivery {
  private namespace?: Namespace;
  readonly order = new DeliveryOrder((entries) => this.deliverAll(entries));

  constructor(private readonly node: FanoutNode) {}

  /** The sockets to deliver to: the gateway's namespace, once the socket server is up. */
  attach(namespace: Namespace): void {
    this.namespace = namespace;
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
          writes.send(rooms, packet);
          this.node.counters.delivered++;
        }
      }
    } finally {
      writes.release();
    }
  }
}
