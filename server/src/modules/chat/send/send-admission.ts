import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { overloaded } from '../../../common/errors';
import { LoadSignals } from './node-load-signals';
import { AdmissionPolicy, LoadReading, retryAfterMs } from './send-admission.policy';

/** How often the signals are read: the decision is at most this old. */
const SAMPLE_MS = 100;
/** While sends are being refused, one summary line this often instead of a line per refusal. */
const REPORT_MS = 10_000;
/** Weight of the newest sample in the admitted and refused rates (about a second's memory at SAMPLE_MS). */
const RATE_WEIGHT = 0.1;

/**
 * The one owner of admitting chat sends on this node. Past what the node can deliver on time, acknowledging
 * more sends only queues their deliveries (the fan-out falls seconds behind); so while its own signals say it
 * is overloaded, a send is refused before anything is stored, with a retryable 503 that tells the client when
 * to try again (same client key: nothing is stored twice). The check reads a flag and the insert queue's
 * length (no Redis round trip); the other signals are read on a timer.
 */
@Injectable()
export class SendAdmission implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SendAdmission.name);
  private readonly policy: AdmissionPolicy;
  /** The refusal, made when its delay changes: refusals come by the thousand under load, and each new error would capture a stack. */
  private refusal: Error;
  private refusalDelayMs: number;
  private readonly baseRetryAfterMs: number;
  private readonly insertWaitLimitMs: number;
  private sampler?: NodeJS.Timeout;
  /** sends admitted and refused since the last sample, and their rates per ms */
  private admittedNow = 0;
  private refusedNow = 0;
  private admittedRate = 0;
  private refusedRate = 0;
  /** refusals since the last report */
  private refused = 0;
  private worst: LoadReading = { fanoutLagMs: 0, insertWaitMs: 0, loopDelayMs: 0 };
  private reportedAt = Date.now();

  constructor(
    private readonly signals: LoadSignals,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.policy = new AdmissionPolicy(
      { fanoutLagMs: config.OVERLOAD_FANOUT_LAG_MS, insertWaitMs: config.OVERLOAD_INSERT_WAIT_MS, loopDelayMs: config.OVERLOAD_LOOP_DELAY_MS },
      config.OVERLOAD_CLEAR_FRACTION,
    );
    this.baseRetryAfterMs = this.refusalDelayMs = config.OVERLOAD_RETRY_AFTER_MS;
    this.refusal = overloaded(this.refusalDelayMs);
    this.insertWaitLimitMs = config.OVERLOAD_INSERT_WAIT_MS;
  }

  onModuleInit(): void {
    this.sampler = setInterval(() => this.sample(), SAMPLE_MS);
    this.sampler.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sampler);
  }

  /** Whether sends are being refused now. */
  get refusing(): boolean {
    return this.policy.isRefusing;
  }

  /**
   * Throws the retryable refusal (503 SHARED.ERROR.OVERLOADED with retryAfterMs) while this node is overloaded,
   * or when this send would wait longer than the limit for its insert statement: that queue is bounded per send.
   */
  admit(): void {
    if (!this.policy.isRefusing && !(this.insertWaitLimitMs > 0 && this.signals.insertWaitMs() > this.insertWaitLimitMs)) {
      this.admittedNow++;
      return;
    }
    this.refusedNow++;
    throw this.refusal;
  }

  private sample(): void {
    this.admittedRate += RATE_WEIGHT * (this.admittedNow / SAMPLE_MS - this.admittedRate);
    this.refusedRate += RATE_WEIGHT * (this.refusedNow / SAMPLE_MS - this.refusedRate);
    this.refused += this.refusedNow;
    this.admittedNow = this.refusedNow = 0;
    const delay = retryAfterMs(this.baseRetryAfterMs, this.refusedRate, this.admittedRate);
    if (delay !== this.refusalDelayMs) {
      this.refusalDelayMs = delay;
      this.refusal = overloaded(delay);
    }
    const reading = this.signals.read();
    const change = this.policy.update(reading);
    if (change?.refusing) this.logger.debug(`refusing sends: ${change.cause} ${Math.round(reading[change.cause!])} ms`);
    else if (change) this.logger.debug('admitting sends again');
    for (const k of Object.keys(reading) as (keyof LoadReading)[]) this.worst[k] = Math.max(this.worst[k], reading[k]);
    const now = Date.now();
    if (now - this.reportedAt < REPORT_MS) return;
    if (this.refused > 0) {
      const w = this.worst;
      this.logger.warn(
        `overloaded: refused ${this.refused} send(s) in ${Math.round((now - this.reportedAt) / 1000)} s, asking for ${this.refusalDelayMs} ms; ` +
          `worst fan-out lag ${Math.round(w.fanoutLagMs)} ms, ` +
          `insert wait ${Math.round(w.insertWaitMs)} ms, event-loop delay ${Math.round(w.loopDelayMs)} ms`,
      );
    }
    this.refused = 0;
    this.worst = { fanoutLagMs: 0, insertWaitMs: 0, loopDelayMs: 0 };
    this.reportedAt = now;
  }
}
