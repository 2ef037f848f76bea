import { Inject, Injectable, Logger } from '@nestjs/common';
import { DelayedError, Job, UnrecoverableError } from 'bullmq';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { SendPushPayload } from '#shared/contracts/queues';
import { encodePushContent } from '#shared/push/push-content';
import { PushNotificationsRepository, PushRecord } from '#shared/push/push-notifications.repository';
import { countPush } from '#shared/push/push-stats';
import { PushSubscriptionsRepository } from '#shared/push/push-subscriptions.repository';
import { RedisService } from '#shared/redis/redis.service';
import { ChatMessagePushDecider } from './chat-message-push.decider';
import { NotificationQueries } from './notification-queries';
import { PushSender } from './push-sender';

/** A push service that keeps answering 429 gets this many waits before the push is given up. */
const MAX_RATE_LIMITED = 10;

export type SendState = SendPushPayload & { rateLimited?: number };

/**
 * Carries out one send-push job: re-reads the subscription, lets the chat decider drop a push that is no longer
 * wanted, has PushSender send it, and records the outcome. 429 waits Retry-After, 5xx and network errors back
 * off exponentially, 404/410 delete the subscription. A 'sent' record per outbox row and subscription makes a
 * replayed job (a crashed worker's, taken over after the stalled check) send nothing twice.
 */
@Injectable()
export class PushDelivery {
  private readonly logger = new Logger(PushDelivery.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: NotificationQueries,
    private readonly chat: ChatMessagePushDecider,
    private readonly subscriptions: PushSubscriptionsRepository,
    private readonly records: PushNotificationsRepository,
    private readonly sender: PushSender,
    private readonly redis: RedisService,
  ) {}

  async deliver(payload: SendState, job: Job<SendState>, token?: string): Promise<string> {
    const base = { outboxId: payload.outboxId, userId: payload.userId, kind: payload.kind, subscriptionId: payload.subscriptionId };
    const ref = payload.content.tag;
    const sub = await this.queries.beforeSend(payload.outboxId, payload.subscriptionId, payload.userId, payload.messageId ?? null);
    if (sub.already_sent) return 'already-sent';
    const skip = payload.messageId ? this.chat.skipAtSend(sub.message_state) : null;
    if (skip) {
      await this.records.record({ ...base, status: 'skipped', reason: skip, ref });
      await countPush(this.redis, 'skipped');
      return skip;
    }
    // Gone, or registered since by someone else on that browser: their device must not show this user's push.
    if (!sub.id || sub.user_id !== payload.userId) {
      await this.records.record({ ...base, status: 'skipped', reason: 'subscription-gone', ref });
      return 'subscription-gone';
    }
    const pushService = new URL(sub.endpoint).origin;
    const outcome = await this.sender.send(sub, encodePushContent(payload.content), payload);
    const at = { ...base, pushService, ref };
    switch (outcome.kind) {
      case 'sent':
        if (await this.records.recordSent({ ...at, httpStatus: outcome.status })) await countPush(this.redis, 'sent');
        return 'sent';
      case 'gone':
        await this.subscriptions.remove(sub.id!, sub.endpoint);
        await this.records.record({ ...at, status: 'subscription-removed', reason: 'gone', httpStatus: outcome.status });
        await countPush(this.redis, 'removed');
        return 'subscription-removed';
      case 'rate-limited': {
        const waits = (payload.rateLimited ?? 0) + 1;
        if (waits > MAX_RATE_LIMITED || !token) {
          await this.giveUp(at, 'rate-limited', outcome.status);
          throw new UnrecoverableError(`push service rate-limited ${waits} times`);
        }
        const wait = outcome.retryAfterMs ?? this.config.PUSH_BACKOFF_MS * 2 ** (waits - 1);
        await this.records.record({ ...at, status: 'retrying', reason: 'rate-limited', httpStatus: outcome.status });
        // Honour Retry-After without spending an attempt: the job goes back to delayed until then.
        await job.updateData({ ...payload, rateLimited: waits });
        await job.moveToDelayed(Date.now() + Math.max(wait, 1), token);
        throw new DelayedError();
      }
      case 'blocked':
        // An endpoint inside our own network is never a push service: the subscription goes, nothing is retried.
        await this.subscriptions.remove(sub.id!, sub.endpoint);
        await this.records.record({ ...at, status: 'subscription-removed', reason: outcome.reason, httpStatus: null });
        await countPush(this.redis, 'removed');
        return 'subscription-removed';
      case 'rejected':
        await this.giveUp(at, 'rejected', outcome.status);
        throw new UnrecoverableError(`push service answered ${outcome.status}`);
      case 'server-error':
      case 'network': {
        const status = outcome.kind === 'server-error' ? outcome.status : null;
        const last = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
        if (last) {
          await this.giveUp(at, 'attempts-exhausted', status);
        } else {
          await this.records.record({ ...at, status: 'retrying', reason: outcome.kind, httpStatus: status });
        }
        throw new Error(outcome.kind === 'network' ? `push service unreachable: ${outcome.message}` : `push service answered ${status}`);
      }
    }
  }

  private async giveUp(at: Omit<PushRecord, 'status'>, reason: string, status: number | null): Promise<void> {
    await this.records.record({ ...at, status: 'failed', reason, httpStatus: status });
    await countPush(this.redis, 'failed');
    this.logger.warn(`push ${at.outboxId} to subscription ${at.subscriptionId} failed: ${reason} ${status ?? ''}`);
  }
}
