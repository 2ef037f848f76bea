import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { JobName, NotifyMessagePayload } from '#shared/contracts/queues';
import { messagePush, pushLang, pushTopic } from '#shared/push/push-content';
import { countPush } from '#shared/push/push-stats';
import { RedisService } from '#shared/redis/redis.service';
import { OutboxJobOwner, OutboxQueryable, OutboxRow, UnneededRows } from '../outbox/outbox-job-owner';
import { BeforeSend, NotificationQueries } from './notification-queries';
import { PushAudience, Recipient } from './push-audience';
import { PushDecision } from './push-fan-out';
import { isSystemMessage } from './system-message';

/**
 * The one place that decides who is pushed for a chat message, at each of its three moments:
 * - relaying (as the notify job's owner): a message none of whose recipients has a subscription gets no job,
 *   the others a job that waits PUSH_DELAY_MS (read by then: not pushed);
 * - after PUSH_DELAY_MS (the notify-message job): per recipient, read, from someone they blocked (not in an offer's
 *   chat), muted, superseded by a newer message (one from someone they blocked does not count),
 *   or the whole message deleted or a system message, then the rules every push shares (PushAudience); the
 *   body is the machine translation into the recipient's reading language when it is stored by then;
 * - just before sending: the message still live and unread by that recipient.
 */
@Injectable()
export class ChatMessagePushDecider implements OutboxJobOwner {
  readonly job = JobName.NotifyMessage;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly queries: NotificationQueries,
    private readonly audience: PushAudience,
    private readonly redis: RedisService,
  ) {}

  /**
   * Most people never subscribe, so this spares most messages a notify job and its queries; their recipients
   * are counted as skipped, as the job would have. Someone who subscribes or joins during the push delay is
   * not pushed for the messages before.
   */
  async unneeded(rows: OutboxRow[], db: OutboxQueryable): Promise<UnneededRows> {
    const messageOf = (row: OutboxRow) => String(row.payload.messageId);
    const found = rows.length ? await this.queries.unpushableMessages(rows.map(messageOf), db) : [];
    const recipientsOf = new Map(found.map((m) => [m.id, m.recipients]));
    const unneeded = rows.filter((row) => recipientsOf.has(messageOf(row)));
    const skipped = unneeded.reduce((sum, row) => sum + recipientsOf.get(messageOf(row))!, 0);
    return {
      rowIds: new Set(unneeded.map((row) => row.id)),
      afterDispatch: () => countPush(this.redis, 'skipped', skipped),
    };
  }

  /** PUSH_DELAY_MS from the commit (not from the relay), so a late relay does not wait twice. */
  delayMs(row: OutboxRow): number {
    return Math.max(0, new Date(row.created_at).getTime() + this.config.PUSH_DELAY_MS - Date.now());
  }

  /** Null when the message is gone. */
  async decide(payload: NotifyMessagePayload): Promise<PushDecision | null> {
    const message = await this.queries.message(payload.messageId);
    if (!message) return null;
    const recipients = (await this.queries.recipients(payload.groupId, message.seq, message.author_id)).map((r): Recipient => ({
      userId: r.user_id,
      userCode: r.code,
      lang: r.lang,
      skip: r.read_seq >= message.seq ? 'read' : r.blocked ? 'blocked' : r.muted ? 'muted' : r.superseded ? 'superseded' : undefined,
    }));
    // Deleted meanwhile: nothing to say. A system message (an offer chat's note about a transition) is announced
    // by the offer.status-changed push of the same change, so it is not pushed twice.
    const skipAll = message.deleted ? 'deleted' : isSystemMessage(message) ? 'system-message' : undefined;
    const unsubscribed = message.participant_count - (message.author_id ? 1 : 0) - recipients.length;
    const audience = await this.audience.of(recipients, 'messages', skipAll, unsubscribed);
    const ref = message.group_code;
    if (skipAll) return { kind: 'message', ref, audience, build: () => null };
    const topic = pushTopic(message.group_code);
    // Translated by now in most cases (the push waits PUSH_DELAY_MS, a translation takes well under a second):
    // each recipient reads the body in their own language when there is one, else as written.
    const translations = audience.recipients.some((r) => !r.reason) ? await this.queries.translations(message.id) : new Map<string, string>();
    return {
      kind: 'message',
      ref,
      audience,
      build: (r) => ({
        content: messagePush({
          lang: pushLang(r.lang),
          groupCode: message.group_code,
          groupName: message.group_name,
          participantCount: message.participant_count,
          senderName: message.author_name,
          messageType: message.type,
          text: translations.get(r.lang) ?? message.text,
          hasFiles: message.has_files,
        }),
        topic,
        urgency: 'high',
        messageId: message.id,
      }),
    };
  }

  /** Just before a chat push is sent: the reason to skip it after all (read or deleted meanwhile, left the group). */
  skipAtSend(state: BeforeSend['message_state']): Exclude<BeforeSend['message_state'], 'unread'> | null {
    return state === 'unread' ? null : state;
  }
}
