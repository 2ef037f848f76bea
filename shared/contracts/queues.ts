import { OFFER_REMINDED_TOPIC, OFFER_STATUS_CHANGED_TOPIC, OfferTimerDue } from './offers';
import { MESSAGE_EDITED_TOPIC, TranslateMessagePayload, TranslateTextsPayload } from './translation';

/** BullMQ queues. A queue groups jobs that share a worker pool and its concurrency. */
export enum QueueName {
  Maintenance = 'maintenance',
  Notifications = 'notifications',
  Translation = 'translation',
  Email = 'email',
  OfferTimers = 'offer-timers',
}

/** Job names: one handler each in the worker, checked at boot. */
export enum JobName {
  Heartbeat = 'heartbeat',
  /** an outbox 'message.created' row: decide who gets a push (after PUSH_DELAY_MS) and queue the sends */
  NotifyMessage = 'notify-message',
  /** an outbox 'offer.status-changed' row: the other party, or the payer / payee */
  NotifyOffer = 'notify-offer',
  /** one push to one subscription */
  SendPush = 'send-push',
  /** removes subscriptions unused for PUSH_SUBSCRIPTION_MAX_IDLE_DAYS, and lifecycle records past PUSH_RECORD_RETENTION_DAYS */
  PrunePushSubscriptions = 'prune-push-subscriptions',
  /** removes outbox rows dispatched more than OUTBOX_RETENTION_HOURS ago */
  PruneOutbox = 'prune-outbox',
  /** an outbox 'message.created' or 'message.edited' row: machine-translate the message for its readers */
  TranslateMessage = 'translate-message',
  /** texts a server waits for (a job translated for a reader): answered, never stored */
  TranslateTexts = 'translate-texts',
  /** finds people with messages unread EMAIL_UNREAD_DELAY_MS after they arrived and records one e-mail each */
  ScanUnreadEmail = 'scan-unread-email',
  /** sends one recorded e-mail (re-checked first) */
  SendEmail = 'send-email',
  /** an outbox 'offer.status-changed' or 'offer.reminded' row: set the offer's next timer (a delayed fire-offer-timer) */
  ArmOfferTimer = 'arm-offer-timer',
  /** an offer's timer is due: hand it to the servers, which apply it once unless the offer moved meanwhile */
  FireOfferTimer = 'fire-offer-timer',
  /** an outbox 'offer.status-changed' row whose move waits for someone, or an 'offer.reminded' row: record their e-mail, due EMAIL_OFFER_DELAY_MS later */
  RecordOfferEmail = 'record-offer-email',
}

/** The payload each job carries: ids and small facts only; handlers re-read state. */
export interface JobPayloads {
  [JobName.Heartbeat]: Record<string, never>;
  [JobName.NotifyMessage]: NotifyMessagePayload;
  [JobName.NotifyOffer]: NotifyOfferPayload;
  [JobName.SendPush]: SendPushPayload;
  [JobName.PrunePushSubscriptions]: Record<string, never>;
  [JobName.PruneOutbox]: Record<string, never>;
  [JobName.TranslateMessage]: TranslateMessagePayload;
  [JobName.TranslateTexts]: TranslateTextsPayload;
  [JobName.ScanUnreadEmail]: Record<string, never>;
  [JobName.SendEmail]: { emailId: string };
  [JobName.ArmOfferTimer]: NotifyOfferPayload;
  [JobName.FireOfferTimer]: OfferTimerDue;
  [JobName.RecordOfferEmail]: NotifyOfferPayload;
}

/**
 * Any job's data may also carry the W3C trace context of the span that queued it (only while tracing): the
 * job's span continues that trace (JobProcessorHost).
 */
export interface TraceCarrier {
  traceparent?: string;
}

/** Outbox topic 'message.created' (written by the chat hot-path statement), plus the outbox row id. */
export interface NotifyMessagePayload extends TraceCarrier {
  outboxId: string;
  groupId: string;
  messageId: string;
  seq: number;
}

/** Outbox topic 'offer.status-changed' (written by the marketplace in the transition's transaction), plus the row id. */
export interface NotifyOfferPayload {
  outboxId: string;
  offerId: string;
  offerCode: string;
  jobCode: string;
  groupCode: string;
  from: number;
  to: number;
  actorId: string | null;
  customerId: string;
  providerId: string;
  paymentId?: string | null;
  /** an 'offer.reminded' row: no move, the offer still waits in `to` for the party whose move it is */
  reminder?: boolean;
  /** the move's row in the offer's log; absent in rows written before it was added; a reminder: the offer's latest move */
  eventId?: string;
  /** a reminder: its timer step (`remind-<days>`) */
  reminderKey?: string;
  /** a reminder: days left before the wait lapses, or (payment due) days the payment has been due */
  reminderDays?: number;
}

export type PushKind = 'message' | 'offer-status' | 'offer-reminder' | 'payment-requested' | 'payment-declared' | 'payment-received';

/** What the service worker (client/public/sw.js) shows: title, body, tag (collapses on the device) and the URL to open. */
export interface PushContent {
  title: string;
  body: string;
  url: string;
  tag: string;
}

export interface SendPushPayload extends TraceCarrier {
  outboxId: string;
  userId: string;
  subscriptionId: string;
  kind: PushKind;
  /** chat pushes: re-checked before sending (read meanwhile or deleted: skipped) */
  messageId?: string;
  content: PushContent;
  /** RFC 8030 Topic: at most 32 base64url characters; a newer push with the same topic replaces an undelivered one */
  topic: string;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
}

/** The queue each job goes to. */
export const JOB_QUEUE: { readonly [N in JobName]: QueueName } = {
  [JobName.Heartbeat]: QueueName.Maintenance,
  [JobName.NotifyMessage]: QueueName.Notifications,
  [JobName.NotifyOffer]: QueueName.Notifications,
  [JobName.SendPush]: QueueName.Notifications,
  [JobName.PrunePushSubscriptions]: QueueName.Notifications,
  [JobName.PruneOutbox]: QueueName.Maintenance,
  [JobName.TranslateMessage]: QueueName.Translation,
  [JobName.TranslateTexts]: QueueName.Translation,
  [JobName.ScanUnreadEmail]: QueueName.Email,
  [JobName.SendEmail]: QueueName.Email,
  [JobName.ArmOfferTimer]: QueueName.OfferTimers,
  [JobName.FireOfferTimer]: QueueName.OfferTimers,
  [JobName.RecordOfferEmail]: QueueName.Email,
};

/**
 * Outbox topics and the jobs each becomes, at most one per queue (job id = 'outbox-<id>' in each queue, so a
 * replay adds nothing).
 */
export const OUTBOX_TOPIC_JOBS: Readonly<Record<string, readonly JobName[]>> = {
  'message.created': [JobName.NotifyMessage, JobName.TranslateMessage],
  [MESSAGE_EDITED_TOPIC]: [JobName.TranslateMessage],
  [OFFER_STATUS_CHANGED_TOPIC]: [JobName.NotifyOffer, JobName.ArmOfferTimer, JobName.RecordOfferEmail],
  [OFFER_REMINDED_TOPIC]: [JobName.NotifyOffer, JobName.ArmOfferTimer, JobName.RecordOfferEmail],
};

/** Parts of the Redis key (a hash) where workers count pushes: sent, failed, removed, skipped. */
export const PUSH_STATS_KEY = ['push', 'stats'] as const;

/** Parts of the Redis key (through RedisService.key) where the worker pool leaves its last heartbeat. */
export const WORKER_HEARTBEAT_KEY = ['worker', 'heartbeat'] as const;

/** What the heartbeat key holds, as JSON; the key expires after three heartbeat intervals. */
export interface WorkerHeartbeat {
  at: string;
  pid: number;
  host: string;
}
