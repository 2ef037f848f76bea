import { Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, JobPayloads, QueueName } from '#shared/contracts/queues';
import { signUnsubscribe } from '#shared/notifications/unsubscribe-token';
import { pushLang } from '#shared/push/push-content';
import { JobService } from '#shared/queue/job.service';
import { EmailTransport } from '../email/email-transport';
import { unreadEmail } from '../email/unread-email-content';
import { UnreadEmailQueries } from '../email/unread-email.queries';
import { configureWorker, JobProcessor, OnJob } from '../jobs/job-processor.decorators';
import { JobProcessorHost } from '../jobs/job-processor.host';

/** A pending e-mail whose job is this old without an outcome is queued again (its job id dedupes a live one). */
const REQUEUE_AFTER_MS = 5 * 60_000;

/**
 * E-mail: a scan records who is due one (unread messages EMAIL_UNREAD_DELAY_MS after they arrived), and one
 * send-email job per recorded e-mail re-checks it and hands it to SMTP, retrying with back-off. A refused address
 * (an SMTP 5xx) fails that e-mail at once, so it never holds the queue.
 */
@JobProcessor(QueueName.Email)
export class EmailProcessor extends JobProcessorHost implements OnApplicationBootstrap {
  private readonly logger = new Logger('email');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: UnreadEmailQueries,
    private readonly transport: EmailTransport,
    private readonly jobs: JobService,
  ) {
    super();
    configureWorker(EmailProcessor, { lockDuration: config.WORKER_LOCK_DURATION_MS, stalledInterval: config.WORKER_STALLED_INTERVAL_MS });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(JobName.ScanUnreadEmail, this.config.EMAIL_SCAN_MS, {});
  }

  @OnJob(JobName.ScanUnreadEmail)
  async scan(): Promise<{ recorded: number; requeued: number }> {
    const recorded = await this.queries.recordDue(this.config.EMAIL_UNREAD_DELAY_MS);
    const stale = await this.queries.stalePending(REQUEUE_AFTER_MS);
    const ids = [...new Set([...recorded, ...stale])];
    if (ids.length) {
      await this.jobs.queue(JobName.SendEmail).addBulk(
        ids.map((emailId) => ({
          name: JobName.SendEmail,
          data: { emailId },
          opts: {
            jobId: `email-${emailId}`,
            attempts: this.config.EMAIL_ATTEMPTS,
            backoff: { type: 'exponential', delay: this.config.EMAIL_BACKOFF_MS },
            removeOnComplete: { age: 3600, count: 10_000 },
          },
        })),
      );
    }
    return { recorded: recorded.length, requeued: ids.length - recorded.length };
  }

  @OnJob(JobName.SendEmail)
  async send(payload: JobPayloads[JobName.SendEmail], job: Job): Promise<{ status: string; reason?: string }> {
    const email = await this.queries.email(payload.emailId);
    if (!email || email.status !== 'pending') return { status: 'done-before' };
    // Checked again just before each attempt: read, deleted, muted or switched off meanwhile: nothing is sent.
    if (!email.email_on) return this.skip(email.id, 'setting-off');
    const chats = await this.queries.stillDue(email.user_id, email.covers);
    if (chats.length === 0) return this.skip(email.id, 'read');

    const lang = pushLang(email.lang);
    const baseUrl = (this.config.PUBLIC_URL ?? `http://localhost:${this.config.PORT}`).replace(/\/$/, '');
    const token = signUnsubscribe(this.config.JWT_SECRET, email.user_id, 'messages', this.config.EMAIL_UNSUBSCRIBE_TTL_DAYS * 86_400_000);
    const unsubscribeUrl = `${baseUrl}/api/email/unsubscribe?token=${encodeURIComponent(token)}`;
    const content = unreadEmail(lang, chats, baseUrl, unsubscribeUrl);
    try {
      await this.transport.send({
        id: email.id,
        to: email.email,
        ...content,
        headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
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

  private async skip(id: string, reason: string): Promise<{ status: string; reason: string }> {
    await this.queries.finish(id, 'skipped', reason);
    return { status: 'skipped', reason };
  }
}
