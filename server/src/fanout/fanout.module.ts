import { Module } from '@nestjs/common';
import { FanoutLag } from './fanout-lag';
import { FanoutNode } from './fanout-node';
import { FanoutPublisher } from './fanout-publisher';
import { InboxReader } from './inbox-reader';
import { LocalDelivery } from './local-delivery';

/**
 * The one ordered path from a committed change to the sockets of everyone concerned, on every node (docs/message-path.md):
 * FanoutPublisher in, the gate and the routing in Redis, InboxReader and LocalDelivery out. Below both the chat
 * (which publishes) and the realtime gateway (which holds the sockets); it imports neither.
 */
@Module({
  providers: [FanoutNode, FanoutLag, LocalDelivery, FanoutPublisher, InboxReader],
  exports: [FanoutNode, FanoutLag, LocalDelivery, FanoutPublisher],
})
export class FanoutModule {}
