import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ConfigModule, APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { DatabaseModule } from '#shared/database/database.module';
import { QueueModule } from '#shared/queue/queue.module';
import { RedisModule } from '#shared/redis/redis.module';
import { traceLogMixin } from '#shared/telemetry/trace-context';
import { TracingShutdown } from '#shared/telemetry/tracing-shutdown';
import { OutboxRelay } from './outbox/outbox-relay.service';
import { NotificationSettingsRepository } from '#shared/notifications/notification-settings.repository';
import { PresenceClock } from '#shared/presence/presence-clock';
import { PresenceService } from '#shared/presence/presence.service';
import { PushNotificationsRepository } from '#shared/push/push-notifications.repository';
import { PushSubscriptionsRepository } from '#shared/push/push-subscriptions.repository';
import { JobRunner } from './jobs/job-runner.service';
import { EmailComposer } from './email/email-composer';
import { EmailTransport } from './email/email-transport';
import { OfferEmailQueries } from './email/offer-email.queries';
import { OfferEmailRecorder } from './email/offer-email.recorder';
import { UnreadEmailQueries } from './email/unread-email.queries';
import { EmailProcessor } from './processors/email.processor';
import { WorkerMetrics } from './metrics/worker-metrics';
import { MaintenanceProcessor } from './processors/maintenance.processor';
import { NotificationsProcessor } from './processors/notifications.processor';
import { OUTBOX_JOB_OWNERS } from './outbox/outbox-job-owner';
import { ChatMessagePushDecider } from './push/chat-message-push.decider';
import { NotificationQueries } from './push/notification-queries';
import { OfferPushDecider } from './push/offer-push.decider';
import { PushAudience } from './push/push-audience';
import { PushDelivery } from './push/push-delivery';
import { PushFanOut } from './push/push-fan-out';
import { PushSender } from './push/push-sender';
import { OfferTimersProcessor } from './processors/offer-timers.processor';
import { OfferTimerQueries } from './timers/offer-timer.queries';
import { OfferTimers } from './timers/offer-timers';
import { TranslationProcessor } from './processors/translation.processor';
import { TextTranslator } from './translation/text-translator';
import { TranslateMessageJob } from './translation/translate-message.job';
import { TranslationEngines } from './translation/translation-engines';
import { TranslationQueries } from './translation/translation-queries';
import { ServedPairs } from './translation/served-pairs';

/** The worker process: the outbox relay and BullMQ processors over the same config, database and Redis as the server; no HTTP. */
@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ pinoHttp: { level: config.LOG_LEVEL, name: 'worker', ...traceLogMixin() } }),
    }),
    DiscoveryModule,
    DatabaseModule.forRoot(),
    RedisModule,
    QueueModule,
  ],
  providers: [
    TracingShutdown,
    JobRunner,
    WorkerMetrics,
    MaintenanceProcessor,
    NotificationsProcessor,
    NotificationQueries,
    // E-mail: the unread-messages scan, offer moves that wait for someone, and the sends, through SMTP (or .eml files in development).
    EmailProcessor,
    EmailComposer,
    EmailTransport,
    UnreadEmailQueries,
    OfferEmailQueries,
    OfferEmailRecorder,
    // Deciding who gets a push: one decider per kind, over the rules every push shares (PushAudience).
    ChatMessagePushDecider,
    OfferPushDecider,
    PushAudience,
    NotificationSettingsRepository,
    // Carrying it out: recording the decisions and queueing the sends, then sending each one.
    PushFanOut,
    PushDelivery,
    PushSender,
    PushSubscriptionsRepository,
    PushNotificationsRepository,
    PresenceClock,
    PresenceService,
    // Machine translation of chat messages: the engines of TRANSLATION_ENGINES, the job and its queries.
    TranslationEngines,
    TextTranslator,
    TranslationQueries,
    ServedPairs,
    TranslateMessageJob,
    TranslationProcessor,
    // Offer timers: delayed jobs set after every move, handed to the servers when due.
    OfferTimers,
    OfferTimerQueries,
    OfferTimersProcessor,
    // The outbox relay runs in the worker: it needs no HTTP, and scales with worker replicas (SKIP LOCKED).
    OutboxRelay,
    {
      provide: OUTBOX_JOB_OWNERS,
      inject: [ChatMessagePushDecider, TranslateMessageJob, OfferEmailRecorder],
      useFactory: (chat: ChatMessagePushDecider, translate: TranslateMessageJob, offerEmails: OfferEmailRecorder) => [chat, translate, offerEmails],
    },
  ],
})
export class WorkerModule {}
