import { Inject, Injectable } from '@nestjs/common';
import { JobsOptions } from 'bullmq';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, PushKind, SendPushPayload } from '#shared/contracts/queues';
import { PushNotificationsRepository } from '#shared/push/push-notifications.repository';
import { countPush } from '#shared/push/push-stats';
import { JobService } from '#shared/queue/job.service';
import { withTraceparent } from '#shared/telemetry/trace-context';
import { RedisService } from '#shared/redis/redis.service';
import { Audience, Recipient } from './push-audience';

/** What one send carries besides its addressing: built per recipient, null when there is nothing to send. */
export type BuildPush = (r: Recipient) => Pick<SendPushPayload, 'content' | 'topic' | 'urgency' | 'messageId'> | null;

/** A decider's answer for one outbox row and one kind of push. */
export interface PushDecision {
  kind: PushKind;
  /** what the push is about (a group or offer code), for the admin's log */
  ref: string;
  audience: Audience;
  build: BuildPush;
}

/**
 * Carries out a decider's decision: records it once per outbox row and recipient, and queues one send-push job
 * per subscription of each recipient to push (job id 'push-<outbox>-<subscription>'). A replay re-queues the
 * sends of 'queued' decisions (their job ids dedupe) and nothing else. Decides nothing itself.
 */
@Injectable()
export class PushFanOut {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly records: PushNotificationsRepository,
    private readonly jobs: JobService,
    private readonly redis: RedisService,
  ) {}

  async queue(outboxId: string, { kind, ref, audience, build }: PushDecision): Promise<Record<string, number>> {
    const { recipients, subscriptions, unsubscribed } = audience;
    if (recipients.length === 0) {
      await countPush(this.redis, 'skipped', unsubscribed);
      return unsubscribed ? { 'skipped:no-subscription': unsubscribed } : {};
    }
    const reasons = new Map(recipients.map((r) => [r.userId, r.reason] as const));
    const decisions = await this.records.decide(
      outboxId,
      kind,
      ref,
      recipients.map((r) => ({ userId: r.userId, reason: r.reason })),
    );
    const counts: Record<string, number> = unsubscribed ? { 'skipped:no-subscription': unsubscribed } : {};
    let skippedNow = unsubscribed;
    const sends: { name: JobName.SendPush; data: SendPushPayload; opts: JobsOptions }[] = [];
    for (const r of recipients) {
      const decision = decisions.get(r.userId);
      if (!decision) continue;
      const counted = decision.status === 'skipped' ? `skipped:${decision.fresh ? reasons.get(r.userId) : 'earlier'}` : 'queued';
      counts[counted] = (counts[counted] ?? 0) + 1;
      if (decision.status === 'skipped') {
        if (decision.fresh) skippedNow += 1;
        continue;
      }
      const built = build(r);
      if (!built) continue;
      for (const sub of subscriptions.filter((s) => s.user_id === r.userId)) {
        sends.push({
          name: JobName.SendPush,
          data: withTraceparent({ outboxId, userId: r.userId, subscriptionId: sub.id, kind, ...built }),
          opts: {
            jobId: `push-${outboxId}-${sub.id}`,
            attempts: this.config.PUSH_ATTEMPTS,
            backoff: { type: 'exponential', delay: this.config.PUSH_BACKOFF_MS },
            removeOnComplete: { age: 3600, count: 10_000 },
          },
        });
      }
    }
    // One round trip for every send; their job ids make a replay add nothing.
    if (sends.length) await this.jobs.queue(JobName.SendPush).addBulk(sends);
    await countPush(this.redis, 'skipped', skippedNow);
    return counts;
  }
}
