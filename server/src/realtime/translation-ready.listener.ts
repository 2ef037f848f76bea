import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { userRoom } from '#shared/contracts/socket-events';
import { TRANSLATION_READY_CHANNEL, TranslationReadyNotice } from '#shared/contracts/translation';
import { RedisService } from '#shared/redis/redis.service';
import { SocketEmitter } from './socket-emitter.service';

/**
 * Gives a machine translation the worker stored to the readers of its language, live: the worker publishes a
 * TranslationReadyNotice on a Redis channel every server subscribes to, and each server emits `message:updated`
 * to its own sockets of those readers (a local emit, so every socket gets it once whichever node it is on). A
 * notice missed (no server up, Redis away) loses nothing: REST pages and `sync` read the stored translation.
 */
@Injectable()
export class TranslationReadyListener implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(TranslationReadyListener.name);
  private subscriber?: RedisService['client'];

  constructor(
    private readonly redis: RedisService,
    private readonly emitter: SocketEmitter,
  ) {}

  async onModuleInit(): Promise<void> {
    const subscriber = this.redis.client.duplicate();
    subscriber.on('error', (err: Error) => this.logger.warn(`translation notices: ${err.message}`));
    this.subscriber = subscriber;
    try {
      await subscriber.connect();
      await subscriber.subscribe(this.redis.key(...TRANSLATION_READY_CHANNEL), (raw) => this.deliver(raw));
    } catch (err) {
      this.logger.warn(`translation notices: not subscribed (${(err as Error).message}); translations reach readers by REST and sync`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber?.isOpen) await subscriber.close().catch(() => subscriber.destroy());
  }

  private deliver(raw: string): void {
    let notice: TranslationReadyNotice;
    try {
      notice = JSON.parse(raw) as TranslationReadyNotice;
    } catch {
      return;
    }
    const io = this.emitter.io;
    if (!io || !Array.isArray(notice.readerCodes) || !notice.readerCodes.length) return;
    io.local.to(notice.readerCodes.map(userRoom)).emit('message:updated', {
      groupCode: notice.groupCode,
      code: notice.code,
      translation: notice.translation,
      sourceEditedAt: notice.sourceEditedAt,
    });
  }
}
