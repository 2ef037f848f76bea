import { Inject } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, QueueName } from '#shared/contracts/queues';
import type { TranslateMessagePayload } from '#shared/contracts/translation';
import { configureWorker, JobProcessor, OnJob } from '../jobs/job-processor.decorators';
import { JobProcessorHost } from '../jobs/job-processor.host';
import { TranslateMessageJob, TranslateOutcome } from '../translation/translate-message.job';

/** Machine translation of chat messages, on its own queue so a slow engine never holds pushes up. */
@JobProcessor(QueueName.Translation)
export class TranslationProcessor extends JobProcessorHost {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly translate: TranslateMessageJob,
  ) {
    super();
    configureWorker(TranslationProcessor, {
      lockDuration: Math.max(config.WORKER_LOCK_DURATION_MS, config.TRANSLATION_TIMEOUT_MS * 2),
      stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
      maxStalledCount: 2,
    });
  }

  override concurrency(): number {
    return this.config.TRANSLATION_CONCURRENCY;
  }

  @OnJob(JobName.TranslateMessage)
  translateMessage(payload: TranslateMessagePayload): Promise<TranslateOutcome> {
    return this.translate.run(payload);
  }
}
