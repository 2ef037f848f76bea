import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChatMessageType } from '#shared/contracts/chat';
import { blockedAuthorSql } from '#shared/notifications/blocked-author.sql';
import { MUTED_NOW_SQL } from '#shared/notifications/notification-settings.repository';
import { OutboxQueryable } from '../outbox/outbox-job-owner';

export interface MessageFacts {
  id: string;
  seq: number;
  type: number;
  text: string;
  deleted: boolean;
  offer_note: boolean;
  author_id: string | null;
  author_name: string | null;
  group_code: string;
  group_name: string | null;
  group_type: number;
  participant_count: number;
  has_files: boolean;
}

export interface MessageRecipient {
  user_id: string;
  code: string;
  lang: string;
  read_seq: number;
  muted: boolean;
  /** the recipient blocked the author (outside an offer's chat) */
  blocked: boolean;
  /** a newer live message from someone else exists: its own push speaks for this one */
  superseded: boolean;
}

export interface BeforeSend {
  /** null: the subscription is gone */
  id: string | null;
  user_id: string | null;
  endpoint: string;
  p256dh: string;
  auth: string;
  already_sent: boolean;
  message_state: 'unread' | 'read' | 'deleted' | 'left-group';
}

export interface UserFacts {
  id: string;
  code: string;
  lang: string;
}

/** What the push deciders and the delivery re-read from Postgres (jobs carry ids only). */
@Injectable()
export class NotificationQueries {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async message(messageId: string): Promise<MessageFacts | undefined> {
    const rows: MessageFacts[] = await this.db.query(
      `SELECT m.id, m.seq::int AS seq, m.type, m.text, m.deleted_at IS NOT NULL AS deleted, m.offer_note, m.author_id,
              NULLIF(trim(concat_ws(' ', u.name, u.surname)), '') AS author_name,
              g.code AS group_code, g.name AS group_name, g.type AS group_type,
              (SELECT count(*)::int FROM chat_participant cp WHERE cp.group_id = g.id) AS participant_count,
              EXISTS (SELECT 1 FROM chat_message_file mf WHERE mf.message_id = m.id) AS has_files
       FROM chat_message m JOIN chat_group g ON g.id = m.group_id LEFT JOIN "user" u ON u.id = m.author_id
       WHERE m.id = $1`,
      [messageId],
    );
    return rows[0];
  }

  /**
   * Of these chat messages, those none of whose recipients (participants but the author) has a push subscription,
   * with their number of recipients. `db`: the relay's transaction.
   */
  async unpushableMessages(messageIds: string[], db: OutboxQueryable = this.db): Promise<{ id: string; recipients: number }[]> {
    return (await db.query(
      `SELECT m.id::text AS id,
              (SELECT count(*) FROM chat_participant p
               WHERE p.group_id = m.group_id AND p.user_id IS DISTINCT FROM m.author_id)::int AS recipients
       FROM chat_message m
       WHERE m.id = ANY($1::bigint[])
         AND NOT EXISTS (SELECT 1 FROM chat_participant p JOIN push_subscription s ON s.user_id = p.user_id
                         WHERE p.group_id = m.group_id AND p.user_id IS DISTINCT FROM m.author_id)`,
      [messageIds],
    )) as { id: string; recipients: number }[];
  }

  /**
   * Every participant but the author who has a push subscription (nobody else can be pushed, and most chat
   * members never subscribe, so the rest is left out here), with what the decision needs, blocks included.
   */
  recipients(groupId: string, seq: number, authorId: string | null): Promise<MessageRecipient[]> {
    return this.db.query(
      `SELECT p.user_id, u.code, u.lang, p.read_seq::int AS read_seq, ${MUTED_NOW_SQL} AS muted,
              ${blockedAuthorSql('$3::uuid', 'g.type')} AS blocked,
              EXISTS (SELECT 1 FROM chat_message n
                      WHERE n.group_id = p.group_id AND n.seq > $2 AND n.deleted_at IS NULL
                        AND n.author_id IS DISTINCT FROM p.user_id
                        -- only a message that is pushed itself (see isSystemMessage) speaks for older ones
                        AND n.author_id IS NOT NULL AND n.type = $4
                        AND NOT n.offer_note AND NOT ${blockedAuthorSql('n.author_id', 'g.type')}) AS superseded
       FROM chat_participant p JOIN "user" u ON u.id = p.user_id JOIN chat_group g ON g.id = p.group_id
       WHERE p.group_id = $1 AND p.user_id IS DISTINCT FROM $3::uuid
         AND EXISTS (SELECT 1 FROM push_subscription s WHERE s.user_id = p.user_id)`,
      [groupId, seq, authorId, ChatMessageType.Text],
    );
  }

  /**
   * Everything a send re-reads, in one round trip: the subscription, whether this outbox row already went to
   * it, and (for a chat push) whether the message is still live and unread by the recipient.
   */
  async beforeSend(outboxId: string, subscriptionId: string, userId: string, messageId: string | null): Promise<BeforeSend> {
    const [row]: BeforeSend[] = await this.db.query(
      `SELECT s.id, s.user_id, s.endpoint, s.p256dh, s.auth,
              EXISTS (SELECT 1 FROM push_notification n
                      WHERE n.outbox_id = $1 AND n.subscription_id = $2 AND n.status = 'sent') AS already_sent,
              CASE WHEN $4::bigint IS NULL THEN 'unread' ELSE COALESCE((
                SELECT CASE WHEN m.deleted_at IS NOT NULL THEN 'deleted' WHEN p.read_seq IS NULL THEN 'left-group'
                            WHEN p.read_seq >= m.seq THEN 'read' ELSE 'unread' END
                FROM chat_message m LEFT JOIN chat_participant p ON p.group_id = m.group_id AND p.user_id = $3
                WHERE m.id = $4), 'deleted') END AS message_state
       FROM (SELECT 1) one LEFT JOIN push_subscription s ON s.id = $2`,
      [outboxId, subscriptionId, userId, messageId],
    );
    return row;
  }

  /**
   * The message's stored translations of its current text (a row for an older text, kept only until the edit's
   * job replaces it, is left out), by language.
   */
  async translations(messageId: string): Promise<Map<string, string>> {
    const rows: { lang: string; text: string }[] = await this.db.query(
      `SELECT t.lang, t.text FROM chat_message_translation t JOIN chat_message m ON m.id = t.message_id
       WHERE t.message_id = $1 AND t.source_md5 = md5(m.text)`,
      [messageId],
    );
    return new Map(rows.map((r) => [r.lang, r.text]));
  }

  users(ids: string[]): Promise<UserFacts[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.query(`SELECT id, code, lang FROM "user" WHERE id = ANY($1::uuid[])`, [ids]);
  }
}
