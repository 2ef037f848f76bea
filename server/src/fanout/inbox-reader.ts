import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { RedisClientType } from 'redis';
import { RedisService } from '#shared/redis/redis.service';
import type { InboxEntry } from './delivery-order';
import { FanoutLag } from './fanout-lag';
import { FanoutNode } from './fanout-node';
import { LocalDelivery } from './local-delivery';

const READ_BLOCK_MS = 1000;
const CATCH_UP_PAGE = 500;

interface StreamReply {
  messages: InboxEntry[];
}

/**
 * Reads this node's inbox (FanoutNode) and hands what it holds to LocalDelivery, from the inbox's start. When
 * Redis no longer knows the node (FanoutNode.lost), registers it again first, delivers what the recent stream
 * holds for it, and reads the new inbox from its start: nothing is read from the inbox before what preceded it,
 * so each group stays in order.
 */
@Injectable()
export class InboxReader implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(InboxReader.name);
  private reader?: RedisClientType;
  private running = false;

  constructor(
    private readonly redis: RedisService,
    private readonly node: FanoutNode,
    private readonly local: LocalDelivery,
    private readonly lag: FanoutLag,
  ) {}

  async onModuleInit(): Promise<void> {
    this.reader = this.redis.client.duplicate() as RedisClientType;
    this.reader.on('error', (err: Error) => this.logger.warn(`fan-out reader: ${err.message}`));
    await this.reader.connect();
    this.running = true;
    const catchUpTo = await this.node.register();
    this.read(catchUpTo).catch((err: unknown) => this.logger.error({ err }, 'fan-out reader stopped'));
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    // The blocking read returns within READ_BLOCK_MS; closing the connection ends it at once.
    await this.reader?.destroy();
  }

  private async read(firstCatchUpTo: string): Promise<void> {
    const order = this.local.order;
    // A concrete position, never '$': a read that fails (Redis away or LOADING) resumes from there.
    let lastId = '0-0';
    let catchUpTo = firstCatchUpTo;
    while (this.running && this.reader?.isOpen) {
      try {
        if (this.node.lost) {
          order.restart();
          catchUpTo = await this.node.register();
          lastId = '0-0';
        }
        if (catchUpTo) {
          await this.catchUp(catchUpTo);
          catchUpTo = '';
        }
        order.resume();
        const reply = (await this.reader.xRead({ key: this.node.inbox, id: lastId }, { BLOCK: READ_BLOCK_MS, COUNT: 500 })) as StreamReply[] | null;
        for (const batch of reply ?? []) {
          // The lag is the inbox's: entries delivered from the recent stream after a re-registration are old on purpose.
          for (const { id } of batch.messages) this.lag.observe(id);
          order.received(batch.messages);
          lastId = batch.messages.at(-1)?.id ?? lastId;
        }
      } catch (err) {
        if (!this.running) return;
        this.logger.warn(`fan-out read failed: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }

  /** Delivers the recent stream's entries up to `until` that were not routed to this node (see FanoutNode.register). */
  private async catchUp(until: string): Promise<void> {
    let from = '-';
    for (;;) {
      const page = await this.reader!.xRange(this.node.recent, from, until, { COUNT: CATCH_UP_PAGE });
      const missed = page.filter(({ message }) => !(message.t ?? '').split(',').includes(this.node.id));
      this.local.deliverAll(missed.map(({ message }) => message.e));
      this.node.counters.caughtUp += missed.length;
      if (page.length < CATCH_UP_PAGE) return;
      from = `(${page.at(-1)!.id}`;
    }
  }
}
