import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { RedisClientType } from 'redis';
import { userRoom } from '#shared/contracts/socket-events';
import { TRANSLATION_READY_READERS, TRANSLATION_READY_STREAM, TranslationReadyNotice } from '#shared/contracts/translation';
import { RedisService } from '#shared/redis/redis.service';
import { FanoutNode } from '../../fanout/fanout-node';
import { FanoutPublisher } from '../../fanout/fanout-publisher';

const READ_BLOCK_MS = 1000;
/** A notice another server took and did not acknowledge for this long (it died) is taken over. */
const CLAIM_IDLE_MS = 30_000;
const CLAIM_EVERY_MS = 10_000;

interface StreamEntry {
  id: string;
  message: Record<string, string>;
}

/**
 * Gives a machine translation the worker stored to the readers of its language, live and right behind its
 * message: the worker adds a TranslationReadyNotice to a Redis stream the servers read as one consumer group, so
 * one server takes each notice and publishes `message:updated` as a follow-up of the message through the ordered
 * fan-out. A notice is acknowledged once published (the fan-out keeps what Redis does not take); one a server took
 * and never acknowledged (it died) is taken over by another after CLAIM_IDLE_MS. A notice missed altogether loses
 * nothing: REST pages and `sync` read the stored translation.
 */
@Injectable()
export class TranslationReadyListener implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(TranslationReadyListener.name);
  private reader?: RedisClientType;
  private running = false;
  private lastClaim = 0;

  constructor(
    private readonly redis: RedisService,
    private readonly node: FanoutNode,
    private readonly fanout: FanoutPublisher,
  ) {}

  private get stream(): string {
    return this.redis.key(...TRANSLATION_READY_STREAM);
  }

  async onModuleInit(): Promise<void> {
    const reader = this.redis.client.duplicate() as RedisClientType;
    reader.on('error', (err: Error) => this.logger.warn(`translation notices: ${err.message}`));
    this.reader = reader;
    this.running = true;
    try {
      await reader.connect();
    } catch (err) {
      this.logger.warn(`translation notices: not connected (${(err as Error).message}); retrying`);
    }
    this.read().catch((err: unknown) => this.logger.error({ err }, 'translation notices: reader stopped'));
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    // The blocking read returns within READ_BLOCK_MS; closing the connection ends it at once.
    await this.reader?.destroy();
  }

  private async read(): Promise<void> {
    let grouped = false;
    while (this.running) {
      try {
        if (!this.reader?.isReady) {
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        if (!grouped) grouped = await this.createGroup();
        await this.claimAbandoned();
        const reply = (await this.reader.xReadGroup(
          TRANSLATION_READY_READERS,
          this.node.id,
          { key: this.stream, id: '>' },
          { BLOCK: READ_BLOCK_MS, COUNT: 100 },
        )) as { messages: StreamEntry[] }[] | null;
        await this.take(reply?.[0]?.messages ?? []);
      } catch (err) {
        if (!this.running) return;
        // Redis lost the stream and its group (a restart without its data): make them again.
        if ((err as Error).message.startsWith('NOGROUP')) grouped = false;
        this.logger.warn(`translation notices: ${(err as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  private async createGroup(): Promise<boolean> {
    await this.reader!.xGroupCreate(this.stream, TRANSLATION_READY_READERS, '$', { MKSTREAM: true }).catch((err: Error) => {
      if (!err.message.startsWith('BUSYGROUP')) throw err;
    });
    return true;
  }

  private async claimAbandoned(): Promise<void> {
    if (Date.now() - this.lastClaim < CLAIM_EVERY_MS) return;
    this.lastClaim = Date.now();
    const { messages } = await this.reader!.xAutoClaim(this.stream, TRANSLATION_READY_READERS, this.node.id, CLAIM_IDLE_MS, '0-0', { COUNT: 100 });
    await this.take(messages.filter((m): m is StreamEntry => m !== null));
  }

  private async take(entries: StreamEntry[]): Promise<void> {
    if (!entries.length) return;
    for (const { id, message } of entries) this.publish(id, message.n);
    await this.reader!.xAck(
      this.stream,
      TRANSLATION_READY_READERS,
      entries.map((e) => e.id),
    );
  }

  private publish(id: string, raw: string | undefined): void {
    let notice: TranslationReadyNotice;
    try {
      notice = JSON.parse(raw ?? '') as TranslationReadyNotice;
    } catch {
      this.logger.warn(`translation notice ${id}: not JSON; dropped`);
      return;
    }
    if (!Array.isArray(notice.readerCodes) || !notice.readerCodes.length || typeof notice.seq !== 'number') return;
    this.fanout.publishFollowUp(notice.groupCode, { seq: notice.seq, at: notice.createdAt }, notice.readerCodes.map(userRoom), 'message:updated', {
      groupCode: notice.groupCode,
      code: notice.code,
      translation: notice.translation,
      sourceEditedAt: notice.sourceEditedAt,
    });
  }
}
