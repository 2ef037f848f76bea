import { Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { OfferTimerDue } from '#shared/contracts/offers';
import { JobName, NotifyOfferPayload, QueueName } from '#shared/contracts/queues';
import { configureWorker, JobProcessor, OnJob } from '../jobs/job-processor.decorators';
import { JobProcessorHost } from '../jobs/job-processor.host';
import { FireOutcome, OfferTimers } from '../timers/offer-timers';

/** Offer timers: setting an offer's next timer after each move or reminder, and handing due ones to the servers. */
@JobProcessor(QueueName.OfferTimers)
export class OfferTimersProcessor extends JobProcessorHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(OfferTimersProcessor.name);

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly timers: OfferTimers,
  ) {
    super();
    configureWorker(OfferTimersProcessor, { lockDuration: config.WORKER_LOCK_DURATION_MS, stalledInterval: config.WORKER_STALLED_INTERVAL_MS });
  }

  /** In the background: the queue must not wait for a sweep over every waiting offer. */
  onApplicationBootstrap(): void {
    this.timers.rearmMissing().then(
      (n) => n && this.logger.log(`offer timers: set ${n} timer(s) Redis did not have`),
      (err: unknown) => this.logger.warn(`offer timers: re-arm sweep failed (${(err as Error).message}); next start tries again`),
    );
  }

  @OnJob(JobName.ArmOfferTimer)
  async arm(payload: NotifyOfferPayload): Promise<{ armed: string | null }> {
    return { armed: await this.timers.arm(payload.offerId) };
  }

  @OnJob(JobName.FireOfferTimer)
  fire(payload: OfferTimerDue): Promise<FireOutcome> {
    return this.timers.fire(payload);
  }
}
