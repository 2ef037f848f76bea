import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { FanoutLag } from '../../../fanout/fanout-lag';
import { ChatMessageInsertQueue } from './chat-message-insert.queue';
import { LoadReading } from './send-admission.policy';

/** Where SendAdmission reads this node's load; tests put a source of their own in its place. */
export abstract class LoadSignals {
  /** The signals since the previous read (every 100 ms). */
  abstract read(): LoadReading;
  /** Read on every send, so it must be cheap: how long a send queued now would wait for its insert statement. */
  abstract insertWaitMs(): number;
}

/** This node's own signals: its fan-out reader's lag, its insert queue's wait and its event loop's delay. */
@Injectable()
export class NodeLoadSignals extends LoadSignals implements OnModuleDestroy {
  private readonly loop = monitorEventLoopDelay({ resolution: 10 });

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
    const loopDelayMs = this.loop.max / 1e6;
    this.loop.reset();
    return { fanoutLagMs: this.fanoutLag.take(), insertWaitMs: this.insertWaitMs(), loopDelayMs };
  }

  insertWaitMs(): number {
    return this.inserts.waitMs();
  }
}
