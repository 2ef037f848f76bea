import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { OFFER_TIMER_DUE_CHANNEL, OfferTimerDue } from '#shared/contracts/offers';
import { RedisService } from '#shared/redis/redis.service';
import { OfferTimersService } from './offer-timers.service';

/**
 * Hears the due offer timers the worker publishes and applies each (OfferTimersService): every server hears
 * every notice, and the step's claim in Postgres lets exactly one of them act. A notice no server applied (none
 * up, Redis away) is published again by the worker's retries, so a timer is late at worst, never lost.
 */
@Injectable()
export class OfferTimerDueListener implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(OfferTimerDueListener.name);
  private subscriber?: RedisService['client'];

  constructor(
    private readonly redis: RedisService,
    private readonly timers: OfferTimersService,
  ) {}

  async onModuleInit(): Promise<void> {
    const subscriber = this.redis.client.duplicate();
    subscriber.on('error', (err: Error) => this.logger.warn(`offer timers: ${err.message}`));
    this.subscriber = subscriber;
    try {
      await subscriber.connect();
      await subscriber.subscribe(this.redis.key(...OFFER_TIMER_DUE_CHANNEL), (raw) => void this.apply(raw));
    } catch (err) {
      this.logger.warn(`offer timers: not subscribed (${(err as Error).message}); due timers wait for another server`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = undefined;
    if (subscriber?.isOpen) await subscriber.close().catch(() => subscriber.destroy());
  }

  private async apply(raw: string): Promise<void> {
    try {
      const due = JSON.parse(raw) as OfferTimerDue;
      await this.timers.apply(due);
    } catch (err) {
      // Lost a race with another server, or Postgres is away: the worker's job sees no claim and tries again.
      this.logger.warn(`offer timer not applied here: ${(err as Error).message}`);
    }
  }
}
