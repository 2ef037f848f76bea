import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { RedisService } from '#shared/redis/redis.service';

/** Injection token of the clock FanoutLag reads (Date.now unless a test gives another). */
export const FANOUT_LAG_CLOCK = Symbol('FANOUT_LAG_CLOCK');

/** The node↔Redis clock offset is measured again this often (clocks drift, NTP steps them). */
const CLOCK_REFRESH_MS = 30_000;

/**
 * How far behind this node's fan-out is: the age of the stream entries its reader is delivering now, and how long
 * its own deliveries took from its gate call (`observeDelivered`). Stream ids start with the Redis clock's
 * milliseconds at XADD, so an entry's age is this node's clock, moved onto Redis' clock by the offset measured
 * with TIME, minus the id's time. The reader calls `observe` once per entry it reads.
 */
@Injectable()
export class FanoutLag implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(FanoutLag.name);
  /** Redis' clock minus this node's, in ms. */
  private offsetMs = 0;
  /** The oldest entry read since the last `take`, as its age when it was read. */
  private worstMs = 0;
  /** The same since the last scrape of the metrics, which must not take the load signal's reading. */
  private worstSinceScrapeMs = 0;
  private refresher?: NodeJS.Timeout;

  constructor(
    private readonly redis: RedisService,
    @Optional() @Inject(FANOUT_LAG_CLOCK) private readonly now: () => number = Date.now,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.measureClock();
    this.refresher = setInterval(() => void this.measureClock(), CLOCK_REFRESH_MS);
    this.refresher.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.refresher);
  }

  /** One entry read by the fan-out reader (its stream id, `<ms>-<n>`). */
  observe(entryId: string): void {
    const age = this.now() + this.offsetMs - parseInt(entryId, 10);
    if (age > this.worstMs) this.worstMs = age;
    if (age > this.worstSinceScrapeMs) this.worstSinceScrapeMs = age;
  }

  /** A delivery this node got by its own gate call's answer, not its inbox: `ms` from the call to its delivery. */
  observeDelivered(ms: number): void {
    if (ms > this.worstMs) this.worstMs = ms;
    if (ms > this.worstSinceScrapeMs) this.worstSinceScrapeMs = ms;
  }

  /** The largest lag seen since the last scrape (for the metrics; `take` is the load signal's). */
  takeForScrape(): number {
    const worst = this.worstSinceScrapeMs;
    this.worstSinceScrapeMs = 0;
    return worst;
  }

  /** The largest age read since the last call; 0 when nothing was read (the reader waits on an empty stream: caught up). */
  take(): number {
    const worst = this.worstMs;
    this.worstMs = 0;
    return worst;
  }

  private async measureClock(): Promise<void> {
    try {
      const before = this.now();
      const [seconds, micros] = (await this.redis.client.time()) as unknown as [string, string];
      const after = this.now();
      // Redis read its clock somewhere in the round trip: its middle is the best guess.
      this.offsetMs = Number(seconds) * 1000 + Number(micros) / 1000 - (before + after) / 2;
    } catch (err) {
      this.logger.warn(`measuring the Redis clock: ${(err as Error).message} (keeping offset ${this.offsetMs.toFixed(1)} ms)`);
    }
  }
}
