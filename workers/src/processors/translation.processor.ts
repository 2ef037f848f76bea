import { Inject } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, QueueName } from '#shared/contracts/queues';
import type { TranslatedTexts, TranslateMessagePayload, TranslateTextsPayload } from '#shared/contracts/translation';
import { UnrecoverableError } from 'bullmq';
import { configureWorker, JobProcessor, OnJob } from '../jobs/job-processor.decorators';
import { JobProcessorHost } from '../jobs/job-processor.host';
import { isLanguageCode } from '../translation/language-codes';
import { TextTranslator } from '../translation/text-translator';
import { TranslateMessageJob, TranslateOutcome } from '../translation/translate-message.job';

/** Machine translation of chat messages, on its own queue so a slow engine never holds pushes up. */
@JobProcessor(QueueName.Translation)
export class TranslationProcessor extends JobProcessorHost {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly translate: TranslateMessageJob,
    private readonly translator: TextTranslator,
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

  /** Texts a server waits for: each through the cache and the first engine serving the pair; any failure fails the job at once. */
  @OnJob(JobName.TranslateTexts)
  async translateTexts({ texts, from, to }: TranslateTextsPayload): Promise<TranslatedTexts> {
    if (!isLanguageCode(from) || !isLanguageCode(to)) throw new UnrecoverableError(`unknown language pair ${from}→${to}`);
    let engine = '';
    const out: string[] = [];
    try {
      for (const text of texts) {
        if (!text.trim()) {
          out.push(text);
          continue;
        }
        const translated = await this.translator.translate(text, from, to);
        out.push(translated.text);
        engine = translated.engine;
      }
    } catch (err) {
      throw new UnrecoverableError((err as Error).message);
    }
    return { texts: out, engine };
  }
}
