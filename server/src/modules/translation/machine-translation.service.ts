import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { HttpStatus } from '@nestjs/common';
import { QueueEvents } from 'bullmq';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, QueueName } from '#shared/contracts/queues';
import type { TranslatedTexts } from '#shared/contracts/translation';
import { bullConnection, bullPrefix } from '#shared/queue/bull-connection';
import { JobService } from '#shared/queue/job.service';
import { AppError, ErrorKey } from '../../common/errors';
import { TranslationStatusService } from './translation-status.service';

/** The worker's answer may take the engine's whole timeout, plus the queue's pick-up. */
const QUEUE_SLACK_MS = 5_000;

/**
 * Machine-translates texts a reader asked for and waits for them (a job without a version in their language).
 * The engines run in the worker: this adds a translate-texts job and waits for its answer. Nothing is stored.
 * Off or an unserved pair: 503 / 422 at once, without a job; the engine failing or not answering in time: 502.
 */
@Injectable()
export class MachineTranslationService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(MachineTranslationService.name);
  private events?: QueueEvents;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly status: TranslationStatusService,
    private readonly jobs: JobService,
  ) {}

  onModuleInit(): void {
    this.events = new QueueEvents(QueueName.Translation, { connection: bullConnection(this.config.REDIS_URL), prefix: bullPrefix(this.config.REDIS_PREFIX) });
    this.events.on('error', (err: Error) => this.logger.warn(`translation queue events: ${err.message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.events?.close().catch(() => undefined);
  }

  async translate(texts: string[], from: string, to: string): Promise<TranslatedTexts> {
    const status = await this.status.status();
    if (!status.enabled) throw new AppError(HttpStatus.SERVICE_UNAVAILABLE, ErrorKey.TranslationOff);
    if (!status.pairs.some((p) => p.from === from && p.to === to))
      throw new AppError(HttpStatus.UNPROCESSABLE_ENTITY, ErrorKey.TranslationUnsupported, { brokenRules: [ErrorKey.TranslationUnsupported], from, to });
    const queue = this.jobs.queue(JobName.TranslateTexts);
    const job = await queue.add(JobName.TranslateTexts, { texts, from, to }, { attempts: 1, removeOnComplete: { age: 60 }, removeOnFail: { age: 3600 } });
    try {
      return (await job.waitUntilFinished(this.events!, this.config.TRANSLATION_TIMEOUT_MS + QUEUE_SLACK_MS)) as TranslatedTexts;
    } catch (err) {
      this.logger.warn(`machine translation ${from}→${to} failed: ${(err as Error).message}`);
      throw new AppError(HttpStatus.BAD_GATEWAY, ErrorKey.TranslationFailed);
    }
  }
}
