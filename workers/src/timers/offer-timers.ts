import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { DAY_MS, OFFER_TIMER_DUE_CHANNEL, offerTimerSteps, OfferTimerDue, TIMED_STATUSES } from '#shared/contracts/offers';
import { JobName } from '#shared/contracts/queues';
import { resolveTimerSettings } from '#shared/offers/timer-settings';
import { JobService } from '#shared/queue/job.service';
import { RedisService } from '#shared/redis/redis.service';
import { OfferTimerQueries } from './offer-timer.queries';

/** One timer job per offer, version and step: adding it again while it is kept adds nothing. */
export const offerTimerJobId = (offerId: string, version: number, key: string) => `offer-timer-${offerId}-${version}-${key}`;

export type FireOutcome = 'applied' | 'moved';

const POLL_MS = 50;
const REARM_PAGE = 500;

/**
 * Offer timers as delayed BullMQ jobs (the steps come from the transition table, offerTimerSteps). `arm` runs for
 * every outbox row about an offer (its moves and reminders) and after every step: it sets one delayed
 * fire-offer-timer job for the first step of the current wait not applied yet, due that many days after the
 * offer entered its status, and drops the offer's previous timer (job_offer.timer_job_id). Being in Redis, a delayed job outlives restarts
 * of the worker and the servers.
 *
 * `fire` hands a due step to the servers (Redis channel; they apply it in Postgres, once, and announce it like a
 * move) and waits until it is applied. A timer whose offer moved meanwhile does nothing; a step no server applied
 * in OFFER_TIMER_CONFIRM_MS fails the job, which BullMQ retries (OFFER_TIMER_ATTEMPTS, OFFER_TIMER_BACKOFF_MS).
 */
@Injectable()
export class OfferTimers {
  private readonly logger = new Logger(OfferTimers.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: OfferTimerQueries,
    private readonly jobs: JobService,
    private readonly redis: RedisService,
  ) {}

  /**
   * Sets the offer's next timer and drops the one it replaces (a timer of an earlier wait still pending); answers
   * the new job's id (null: the offer waits for nothing timed now).
   */
  async arm(offerId: string): Promise<string | null> {
    const wait = await this.queries.wait(offerId);
    if (!wait) return null;
    const next = offerTimerSteps(wait.status, resolveTimerSettings(wait.offer_timers)).find((s) => !wait.fired.includes(s.key));
    const jobId = next ? offerTimerJobId(wait.id, wait.version, next.key) : null;
    const previous = await this.queries.replaceTimerJob(wait.id, wait.version, jobId);
    if (previous === undefined) return null;
    const queue = this.jobs.queue(JobName.FireOfferTimer);
    if (next && jobId) {
      const due: OfferTimerDue = { offerId: wait.id, version: wait.version, status: wait.status, key: next.key };
      await queue.add(JobName.FireOfferTimer, due, {
        jobId,
        delay: Math.max(0, new Date(wait.since).getTime() + next.days * DAY_MS - Date.now()),
        attempts: this.config.OFFER_TIMER_ATTEMPTS,
        backoff: { type: 'exponential', delay: this.config.OFFER_TIMER_BACKOFF_MS },
        removeOnComplete: { age: 7 * 24 * 3600 },
        removeOnFail: { count: 5000 },
      });
    }
    // Only a timer still waiting is dropped (one that ran stays for inspection); one left behind does nothing when due.
    if (previous && previous !== jobId) {
      const old = await queue.getJob(previous);
      if (old && (await old.isDelayed())) await old.remove().catch(() => undefined);
    }
    return jobId;
  }

  /**
   * Sets again the timers Redis no longer has (it lost its data, or a job ran out of attempts while no server was
   * up): run at worker start, a page at a time. Answers how many offers it re-armed.
   */
  async rearmMissing(): Promise<number> {
    const queue = this.jobs.queue(JobName.FireOfferTimer);
    let rearmed = 0;
    for (let after = '0'; ;) {
      const page = await this.queries.timedOffers(TIMED_STATUSES, after, REARM_PAGE);
      for (const offer of page) {
        const job = offer.timer_job_id ? await queue.getJob(offer.timer_job_id) : undefined;
        const state = job ? await job.getState() : 'missing';
        if (state === 'failed') {
          await job!.retry('failed');
          rearmed += 1;
        } else if ((state === 'missing' || state === 'completed') && (await this.arm(offer.id))) rearmed += 1;
      }
      if (page.length < REARM_PAGE) return rearmed;
      after = page[page.length - 1].id;
    }
  }

  async fire(due: OfferTimerDue): Promise<FireOutcome> {
    const before = await this.queries.state(due);
    if (before === 'moved') return 'moved';
    if (before === 'waiting') {
      const heard = await this.redis.client.publish(this.redis.key(...OFFER_TIMER_DUE_CHANNEL), JSON.stringify(due));
      if (heard === 0) throw new Error(`offer timer ${due.key} of offer ${due.offerId}: no server to apply it; retried`);
      const after = await this.settled(due);
      if (after === 'waiting') throw new Error(`offer timer ${due.key} of offer ${due.offerId}: not applied in time; retried`);
      if (after === 'moved') return 'moved';
    }
    await this.arm(due.offerId);
    return 'applied';
  }

  private async settled(due: OfferTimerDue): Promise<'applied' | 'moved' | 'waiting'> {
    const deadline = Date.now() + this.config.OFFER_TIMER_CONFIRM_MS;
    for (;;) {
      const state = await this.queries.state(due);
      if (state !== 'waiting' || Date.now() >= deadline) return state;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
