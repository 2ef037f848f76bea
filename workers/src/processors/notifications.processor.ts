import { Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DelayedError, Job, JobsOptions, UnrecoverableError } from 'bullmq';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import {
  JobName,
  NotifyMessagePayload,
  NotifyOfferPayload,
  PushKind,
  QueueName,
  SendPushPayload,
} from '#shared/contracts/queues';
import { ChatGroupType, ChatMessageType } from '#shared/contracts/chat';
import { PresenceService } from '#shared/presence/presence.service';
import { encodePushContent, messagePush, offerPush, pushLang, pushTopic } from '#shared/push/push-content';
import { PushNotificationsRepository, PushRecord } from '#shared/push/push-notifications.repository';
import { countPush } from '#shared/push/push-stats';
import { PushSubscriptionsRepository } from '#shared/push/push-subscriptions.repository';
import { JobService } from '#shared/queue/job.service';
import { RedisService } from '#shared/redis/redis.service';
import { configureWorker, JobProcessor, OnJob } from '../jobs/job-processor.decorators';
import { JobProcessorHost } from '../jobs/job-processor.host';
import { MessageFacts, NotificationQueries } from '../push/notification-queries';
import { PushSender } from '../push/push-sender';

/** OfferStatus.PaymentPending and Closed (spec section 4). */
const PAYMENT_PENDING = 160;
const CLOSED = 200;
/** A push service that keeps answering 429 gets this many waits before the push is given up. */
const MAX_RATE_LIMITED = 10;

/**
 * Offer chats carry notes about transitions (types 2 and 3, or text notes whose text is a JOB_OFFER.* translation
 * key, posted by the marketplace); messages without an author are system messages too.
 */
export function isSystemMessage(m: MessageFacts): boolean {
  if (m.author_id === null || m.type !== ChatMessageType.Text) return true;
  return m.group_type === ChatGroupType.JobOffer && /^JOB_OFFER\.[A-Z0-9_.]+$/.test(m.text);
}

interface Recipient {
  userId: string;
  userCode: string;
  lang: string;
  /** decided before presence and subscriptions are looked at */
  skip?: 'read' | 'muted' | 'superseded';
}

type SendState = SendPushPayload & { rateLimited?: number };

/**
 * Web push. An outbox row becomes a notify-* job (chat: after PUSH_DELAY_MS) that re-reads state and decides
 * per recipient, recording the decision once; each subscription of a recipient gets its own send-push job
 * (job id 'push-<outbox>-<subscription>'), retried on its own: 429 waits Retry-After, 5xx and network errors
 * back off exponentially, 404/410 delete the subscription. A 'sent' record per outbox row and subscription
 * makes a replayed job (a crashed worker's, taken over after the stalled check) send nothing twice.
 */
@JobProcessor(QueueName.Notifications)
export class NotificationsProcessor extends JobProcessorHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(NotificationsProcessor.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: NotificationQueries,
    private readonly subscriptions: PushSubscriptionsRepository,
    private readonly records: PushNotificationsRepository,
    private readonly presence: PresenceService,
    private readonly sender: PushSender,
    private readonly jobs: JobService,
    private readonly redis: RedisService,
  ) {
    super();
    configureWorker(NotificationsProcessor, {
      lockDuration: config.WORKER_LOCK_DURATION_MS,
      stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
      maxStalledCount: 2,
    });
  }

  override concurrency(): number {
    return this.config.PUSH_CONCURRENCY;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.schedule(JobName.PrunePushSubscriptions, this.config.PUSH_PRUNE_INTERVAL * 1000, {});
  }

  @OnJob(JobName.NotifyMessage)
  async notifyMessage(payload: NotifyMessagePayload): Promise<Record<string, number>> {
    const message = await this.queries.message(payload.messageId);
    if (!message) return {};
    const recipients = (await this.queries.recipients(payload.groupId, message.seq, message.author_id)).map(
      (r): Recipient => ({
        userId: r.user_id,
        userCode: r.code,
        lang: r.lang,
        skip: r.read_seq >= message.seq ? 'read' : r.muted ? 'muted' : r.superseded ? 'superseded' : undefined,
      }),
    );
    // Deleted meanwhile: nothing to say. A system message (an offer chat's note about a transition) is announced
    // by the offer.status-changed push of the same change, so it is not pushed twice.
    const skipAll = message.deleted ? 'deleted' : isSystemMessage(message) ? 'system-message' : undefined;
    const unsubscribed = message.participant_count - (message.author_id ? 1 : 0) - recipients.length;
    if (skipAll) {
      for (const r of recipients) r.skip = undefined;
      return this.fanOut(payload.outboxId, 'message', message.group_code, recipients, () => null, skipAll, unsubscribed);
    }
    const topic = pushTopic(message.group_code);
    return this.fanOut(payload.outboxId, 'message', message.group_code, recipients, (r) => ({
      content: messagePush({
        lang: pushLang(r.lang),
        groupCode: message.group_code,
        groupName: message.group_name,
        participantCount: message.participant_count,
        senderName: message.author_name,
        messageType: message.type,
        text: message.text,
        hasFiles: message.has_files,
      }),
      topic,
      urgency: 'high',
      messageId: message.id,
    }), undefined, unsubscribed);
  }

  @OnJob(JobName.NotifyOffer)
  async notifyOffer(payload: NotifyOfferPayload): Promise<Record<string, number>> {
    let targets: { userId: string; kind: Exclude<PushKind, 'message'> }[];
    if (payload.to === PAYMENT_PENDING) targets = [{ userId: payload.customerId, kind: 'payment-requested' }];
    else if (payload.to === CLOSED && payload.paymentId) targets = [{ userId: payload.providerId, kind: 'payment-received' }];
    else targets = [payload.customerId, payload.providerId].map((userId) => ({ userId, kind: 'offer-status' as const }));
    // Nobody is pushed for their own action.
    targets = targets.filter((t) => t.userId && t.userId !== payload.actorId);
    const users = new Map((await this.queries.users(targets.map((t) => t.userId))).map((u) => [u.id, u]));
    const kindOf = new Map(targets.map((t) => [t.userId, t.kind]));
    const recipients = targets
      .filter((t) => users.has(t.userId))
      .map((t): Recipient => ({ userId: t.userId, userCode: users.get(t.userId)!.code, lang: users.get(t.userId)!.lang }));
    const topic = pushTopic(payload.offerCode);
    const counts: Record<string, number> = {};
    // Recipients of one offer event may differ in kind (not today: one kind per event), so fan out per kind.
    for (const kind of new Set(recipients.map((r) => kindOf.get(r.userId)!))) {
      const mine = recipients.filter((r) => kindOf.get(r.userId) === kind);
      const result = await this.fanOut(payload.outboxId, kind, payload.offerCode, mine, (r) => ({
        content: offerPush({ lang: pushLang(r.lang), kind, offerCode: payload.offerCode, jobCode: payload.jobCode, status: payload.to }),
        topic,
        urgency: kind === 'offer-status' ? 'normal' : 'high',
      }));
      for (const [k, v] of Object.entries(result)) counts[k] = (counts[k] ?? 0) + v;
    }
    return counts;
  }

  /**
   * Decides for each recipient (skip with a reason, or queue one send per subscription), records the decision
   * once per outbox row and recipient, and queues the sends. A replay re-queues the sends of 'queued'
   * decisions (their job ids dedupe) and nothing else.
   */
  private async fanOut(
    outboxId: string,
    kind: PushKind,
    ref: string,
    recipients: Recipient[],
    build: (r: Recipient) => Pick<SendPushPayload, 'content' | 'topic' | 'urgency' | 'messageId'> | null,
    skipAll?: string,
    leftOut = 0,
  ): Promise<Record<string, number>> {
    // Someone without a subscription can't be pushed. Recording that per message and member would write a row for
    // nearly every chat message (most people never subscribe); the admin view shows their subscription count
    // instead, and the skip is only counted (with `leftOut`: recipients the caller already knew had none).
    const subs = await this.subscriptions.forUsers(recipients.map((r) => r.userId));
    const subscribed = new Set(subs.map((s) => s.user_id));
    const unsubscribed = leftOut + recipients.length - recipients.filter((r) => subscribed.has(r.userId)).length;
    recipients = recipients.filter((r) => subscribed.has(r.userId));
    if (recipients.length === 0) {
      await countPush(this.redis, 'skipped', unsubscribed);
      return unsubscribed ? { 'skipped:no-subscription': unsubscribed } : {};
    }
    const statuses = skipAll ? [] : await this.presence.statuses(recipients.map((r) => r.userCode));
    const awayMs = this.config.PUSH_AWAY_AFTER * 1000;
    const now = Date.now();
    const online = new Set(
      statuses
        .filter((s) => s.online && (s.lastActiveAt === null || now - Date.parse(s.lastActiveAt) < awayMs))
        .map((s) => s.userCode),
    );
    const reasons = new Map(
      recipients.map((r) => {
        const reason = skipAll ?? r.skip ?? (online.has(r.userCode) ? 'online' : !this.sender.configured ? 'not-configured' : null);
        return [r.userId, reason] as const;
      }),
    );
    const decisions = await this.records.decide(
      outboxId,
      kind,
      ref,
      recipients.map((r) => ({ userId: r.userId, reason: reasons.get(r.userId) ?? null })),
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
      for (const sub of subs.filter((s) => s.user_id === r.userId)) {
        sends.push({
          name: JobName.SendPush,
          data: { outboxId, userId: r.userId, subscriptionId: sub.id, kind, ...built },
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

  @OnJob(JobName.SendPush)
  async sendPush(payload: SendState, job: Job<SendState>, token?: string): Promise<string> {
    const base = { outboxId: payload.outboxId, userId: payload.userId, kind: payload.kind, subscriptionId: payload.subscriptionId };
    const ref = payload.content.tag;
    const sub = await this.queries.beforeSend(payload.outboxId, payload.subscriptionId, payload.userId, payload.messageId ?? null);
    if (sub.already_sent) return 'already-sent';
    if (sub.message_state !== 'unread') {
      await this.records.record({ ...base, status: 'skipped', reason: sub.message_state, ref });
      await countPush(this.redis, 'skipped');
      return sub.message_state;
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

  @OnJob(JobName.PrunePushSubscriptions)
  async prune(): Promise<{ removed: number; records: number }> {
    const removed = await this.subscriptions.prune(this.config.PUSH_SUBSCRIPTION_MAX_IDLE_DAYS);
    await countPush(this.redis, 'removed', removed);
    const records = await this.records.prune(this.config.PUSH_RECORD_RETENTION_DAYS);
    return { removed, records };
  }
}
