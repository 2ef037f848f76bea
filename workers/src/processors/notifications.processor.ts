import { Inject, OnApplicationBootstrap } from '@nestjs/common';
import { Job } from 'bullmq';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, NotifyMessagePayload, NotifyOfferPayload, QueueName } from '#shared/contracts/queues';
import { PushNotificationsRepository } from '#shared/push/push-notifications.repository';
import { countPush } from '#shared/push/push-stats';
import { PushSubscriptionsRepository } from '#shared/push/push-subscriptions.repository';
import { JobService } from '#shared/queue/job.service';
import { RedisService } from '#shared/redis/redis.service';
import { configureWorker, JobProcessor, OnJob } from '../jobs/job-processor.decorators';
import { JobProcessorHost } from '../jobs/job-processor.host';
import { ChatMessagePushDecider } from '../push/chat-message-push.decider';
import { OfferPushDecider } from '../push/offer-push.decider';
import { PushDelivery, SendState } from '../push/push-delivery';
import { PushFanOut } from '../push/push-fan-out';

/**
 * Web push, one handler per job. An outbox row becomes a notify-* job (chat: after PUSH_DELAY_MS): the decider
 * of that kind re-reads state and decides per recipient, PushFanOut records the decisions once and queues one
 * send-push job per subscription, and PushDelivery sends each on its own, with its own retries.
 */
@JobProcessor(QueueName.Notifications)
export class NotificationsProcessor extends JobProcessorHost implements OnApplicationBootstrap {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly chatPushes: ChatMessagePushDecider,
    private readonly offerPushes: OfferPushDecider,
    private readonly fanOut: PushFanOut,
    private readonly delivery: PushDelivery,
    private readonly subscriptions: PushSubscriptionsRepository,
    private readonly records: PushNotificationsRepository,
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
    const decision = await this.chatPushes.decide(payload);
    return decision ? this.fanOut.queue(payload.outboxId, decision) : {};
  }

  @OnJob(JobName.NotifyOffer)
  async notifyOffer(payload: NotifyOfferPayload): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const decision of await this.offerPushes.decide(payload)) {
      for (const [k, v] of Object.entries(await this.fanOut.queue(payload.outboxId, decision))) counts[k] = (counts[k] ?? 0) + v;
    }
    return counts;
  }

  @OnJob(JobName.SendPush)
  sendPush(payload: SendState, job: Job<SendState>, token?: string): Promise<string> {
    return this.delivery.deliver(payload, job, token);
  }

  @OnJob(JobName.PrunePushSubscriptions)
  async prune(): Promise<{ removed: number; records: number }> {
    const removed = await this.subscriptions.prune(this.config.PUSH_SUBSCRIPTION_MAX_IDLE_DAYS);
    await countPush(this.redis, 'removed', removed);
    const records = await this.records.prune(this.config.PUSH_RECORD_RETENTION_DAYS);
    return { removed, records };
  }
}
