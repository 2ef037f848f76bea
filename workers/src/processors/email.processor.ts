import { Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Job } from 'bullmq';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, JobPayloads, QueueName } from '#shared/contracts/queues';
import { JobService } from '#shared/queue/job.service';
import { EmailComposer } from '../email/email-composer';
import { EmailTransport } from '../email/email-transport';
import { OfferEmailRecorder } from '../email/offer-email.recorder';
import { UnreadEmailQueries } from '../email/unread-email.queries';
import { configureWorker, JobProcessor, OnJob } from '../jobs/job-processor.decorators';
import { JobProcessorHost } from '../jobs/job-processor.host';

/** A pending e-mail whose job is this old past its due time without an outcome is queued again (its job id dedupes a live one). */
const REQUEUE_AFTER_MS = 5 * 60_000;
/** The longest wait between two tries while the SMTP server does not answer at all. */
const UNREACHABLE_MAX_WAIT_MS = 10 * 60_000;

type SendEmailData = JobPayloads[JobName.SendEmail] & { unreachable?: number };

/**
 * E-mail: a scan records who is due one about unread messages (EMAIL_UNREAD_DELAY_MS after they arrived), an
 * offer move that waits for someone records theirs (due EMAIL_OFFER_DELAY_MS later), and one send-email job per
 * recorded e-mail re-checks it and hands it to SMTP. An SMTP 4xx retries with back-off (EMAIL_ATTEMPTS); a
 * refused address (an SMTP 5xx) fails that e-mail at once, so it never holds the queue; a server that does not
 * answer at all is tried again later without spending an attempt, so an outage never loses an e-mail still due.
 */
@JobProcessor(QueueName.Email)
export class EmailProcessor extends JobProcessorHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('email');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: UnreadEmailQueries,
    private readonly offerEmails: OfferEmailRecorder,
    private readonly composer: EmailComposer,
    private readonly transport: EmailTransport,
    private readonly jobs: JobService,
  ) {
    super();
    configureWorker(EmailProcessor, { lockDuration: config.WORKER_LOCK_DURATION_MS, stalledInterval: config.WORKER_STALLED_INTERVAL_MS });
  }

  override concurrency(): number {
    return this.config.EMAIL_CONCURRENCY;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(JobName.ScanUnreadEmail, this.config.EMAIL_SCAN_MS, {});
  }

  @OnJob(JobName.ScanUnreadEmail)
  async scan(): Promise<{ recorded: number; requeued: number }> {
    const recorded = await this.queries.recordDue(this.config.EMAIL_UNREAD_DELAY_MS);
    const stale = await this.queries.stalePending(REQUEUE_AFTER_MS);
    const ids = [...new Set([...recorded, ...stale])];
    await this.queueSends(ids.map((emailId) => ({ emailId, delayMs: 0 })));
    return { recorded: recorded.length, requeued: ids.length - recorded.length };
  }

  @OnJob(JobName.RecordOfferEmail)
  async recordOfferEmail(payload: JobPayloads[JobName.RecordOfferEmail]): Promise<{ emailId: string | null }> {
    const email = await this.offerEmails.record(payload);
    if (email) await this.queueSends([{ emailId: email.id, delayMs: Math.max(0, email.dueAt.getTime() - Date.now()) }]);
    return { emailId: email?.id ?? null };
  }

  @OnJob(JobName.SendEmail)
  async send(payload: SendEmailData, job: Job<SendEmailData>, token?: string): Promise<{ status: string; reason?: string }> {
    const email = await this.queries.email(payload.emailId);
    if (!email || email.status !== 'pending') return { status: 'done-before' };
    // Checked again just before each attempt: read, moved on, muted or switched off meanwhile: nothing is sent.
    const composed = await this.composer.compose(email);
    if ('skip' in composed) {
      await this.queries.finish(email.id, 'skipped', composed.skip);
      return { status: 'skipped', reason: composed.skip };
    }
    try {
      await this.transport.send({ id: email.id, to: email.email, ...composed.content, headers: composed.headers });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (EmailTransport.unreachable(error)) {
        const waits = (payload.unreachable ?? 0) + 1;
        await this.queries.attemptFailed(email.id, message);
        await job.updateData({ ...payload, unreachable: waits });
        await job.moveToDelayed(Date.now() + Math.min(this.config.EMAIL_BACKOFF_MS * 2 ** (waits - 1), UNREACHABLE_MAX_WAIT_MS), token);
        throw new DelayedError();
      }
      const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      if (EmailTransport.permanent(error) || last) {
        await this.queries.finish(email.id, 'failed', EmailTransport.permanent(error) ? 'rejected' : 'attempts-exhausted', message);
        this.logger.warn(`e-mail ${email.id} failed: ${message}`);
        return { status: 'failed' };
      }
      await this.queries.attemptFailed(email.id, message);
      throw error;
    }
    await this.queries.finish(email.id, 'sent', null);
    return { status: 'sent' };
  }

  private async queueSends(sends: { emailId: string; delayMs: number }[]): Promise<void> {
    if (!sends.length) return;
    await this.jobs.queue(JobName.SendEmail).addBulk(
      sends.map(({ emailId, delayMs }) => ({
        name: JobName.SendEmail,
        data: { emailId },
        opts: {
          jobId: `email-${emailId}`,
          delay: delayMs,
          attempts: this.config.EMAIL_ATTEMPTS,
          backoff: { type: 'exponential', delay: this.config.EMAIL_BACKOFF_MS },
          removeOnComplete: { age: 3600, count: 10_000 },
        },
      })),
    );
  }
}
