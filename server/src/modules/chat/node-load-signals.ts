import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FanoutLag } from '../../realtime/fanout-lag';
import { ChatMessageInsertQueue } from './chat-message-insert.queue';
import { LoadReading } from './send-admission.policy';

/** Where SendAdmission reads this node's load; tests put a source of their own in its place. */
export abstract class LoadSignals {
  /** The signals since the previous read (every 100 ms). */
  abstract read(): LoadReading;
  /** Read on every send, so it must be cheap: how long a send queued now would wait for its insert statement. */
  abstract insertWaitMs(): number;
}

/**
 * Below this throughput the queue's own rate is not trusted (after idling it reads 0). One statement stores up
 * to 100 sends in a few ms, so an idle queue takes a burst of a hundred at once: with a floor of 0.1/ms such a
 * burst read as a 1 s wait and was refused. A stalled database still shows in the oldest send's wait.
 */
const MIN_INSERT_RATE_PER_MS = 2;
/** Weight of the newest throughput reading in its running average. */
const RATE_WEIGHT = 0.3;

/** This node's own signals: its fan-out reader's lag, its insert queue's wait and its event loop's delay. */
@Injectable()
export class NodeLoadSignals extends LoadSignals implements OnModuleDestroy {
  private readonly loop = monitorEventLoopDelay({ resolution: 10 });
  private answered = 0;
  private readAt = Date.now();
  /** sends answered per ms, averaged over the last readings */
  private insertRate = 0;

  constructor(
    private readonly fanoutLag: FanoutLag,
    private readonly inserts: ChatMessageInsertQueue,
  ) {
    super();
    this.loop.enable();
  }

  onModuleDestroy(): void {
    this.loop.disable();
  }

  read(): LoadReading {
    const now = Date.now();
    const answered = this.inserts.answered;
    if (now > this.readAt) this.insertRate += RATE_WEIGHT * ((answered - this.answered) / (now - this.readAt) - this.insertRate);
    this.answered = answered;
    this.readAt = now;
    const loopDelayMs = this.loop.max / 1e6;
    this.loop.reset();
    return { fanoutLagMs: this.fanoutLag.take(), insertWaitMs: this.insertWaitMs(), loopDelayMs };
  }

  /**
   * The longer of what the oldest queued send has waited and what the queue ahead of a new one takes at the
   * recent throughput: the first sees a stalled database, the second a queue growing faster than it drains,
   * before its head has waited that long.
   */
  insertWaitMs(): number {
    const queued = this.inserts.queued;
    if (queued === 0) return 0;
    return Math.max(this.inserts.oldestWaitMs(), queued / Math.max(this.insertRate, MIN_INSERT_RATE_PER_MS));
  }
}
