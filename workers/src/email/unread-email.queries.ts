import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChatMessageType } from '#shared/contracts/chat';
import { blockedAuthorSql } from '#shared/notifications/blocked-author.sql';
import { MUTED_NOW_SQL } from '#shared/notifications/notification-settings.repository';

/** One chat an unread-messages e-mail names: the messages after fromSeq up to toSeq. */
export interface Cover {
  groupId: string;
  fromSeq: number;
  toSeq: number;
}

/** A chat as the e-mail shows it, re-read just before sending. */
export interface DueChat {
  group_code: string;
  group_name: string | null;
  unread: number;
  /** newest first, at most three */
  latest: { author: string | null; text: string }[];
}

export interface EmailRow {
  id: string;
  user_id: string;
  kind: 'messages' | 'offers' | 'payments';
  /** unread messages: the chats and seq ranges it names; an offer move: {offerId, eventId, reminderDays?} (see offer_event_id, offer_reminder) */
  covers: Cover[];
  status: string;
  attempts: number;
  email: string;
  lang: string;
  /** e-mail of this kind is on in the recipient's settings */
  email_on: boolean;
}

/** How many people one scan records at most (the next scan takes the rest). */
const SCAN_BATCH = 500;

/**
 * A message that counts: someone else's text, live; not a system message (see isSystemMessage): an offer's notes
 * are e-mailed as the offer move itself, when it waits for the reader; not from someone the reader blocked (but
 * in an offer's chat). `p` the participant, `g` the chat, `m` the message.
 */
const countsSql = (m: string) =>
  `${m}.deleted_at IS NULL AND ${m}.author_id IS NOT NULL AND ${m}.author_id <> p.user_id AND ${m}.type = ${ChatMessageType.Text} AND NOT ${m}.offer_note
   AND NOT ${blockedAuthorSql(`${m}.author_id`, 'g.type')}`;
const COUNTS_SQL = countsSql('m');

/** What the unread-messages e-mail reads and writes. The rules of settings are in shared/notifications. */
@Injectable()
export class UnreadEmailQueries {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Records one e-mail per person who has a message unread `delayMs` after it arrived (in a chat not muted, with
   * e-mail for messages on), naming every chat they have unread then (a later message in another chat rides along
   * rather than getting an e-mail of its own), and moves each chat's emailed_seq past the messages named,
   * in one statement: a second scan (or another worker) finds nothing left, so no message is e-mailed twice.
   */
  async recordDue(delayMs: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `WITH unread AS (
         SELECT p.user_id, p.group_id, GREATEST(p.read_seq, p.emailed_seq) AS from_seq, max(m.seq) AS to_seq,
                min(m.created_at) AS oldest
         FROM chat_participant p
         JOIN chat_group g ON g.id = p.group_id
         JOIN chat_message m ON m.group_id = p.group_id AND m.seq > GREATEST(p.read_seq, p.emailed_seq)
         WHERE g.last_seq > GREATEST(p.read_seq, p.emailed_seq) AND ${COUNTS_SQL} AND NOT ${MUTED_NOW_SQL}
         GROUP BY p.user_id, p.group_id, p.read_seq, p.emailed_seq
       ),
       -- people with a message unread for the whole window; their e-mail names every chat unread now
       people AS (
         SELECT DISTINCT n.user_id FROM unread n
         JOIN "user" u ON u.id = n.user_id LEFT JOIN notification_setting s ON s.user_id = n.user_id
         WHERE n.oldest <= now() - make_interval(secs => $1::double precision / 1000) AND COALESCE(s.email_messages, true)
         ORDER BY n.user_id LIMIT $2
       ),
       moved AS (
         UPDATE chat_participant p SET emailed_seq = d.to_seq
         FROM unread d JOIN people USING (user_id)
         WHERE p.user_id = d.user_id AND p.group_id = d.group_id AND p.emailed_seq < d.to_seq
         RETURNING p.user_id, p.group_id, d.from_seq, d.to_seq
       )
       INSERT INTO email_message (user_id, kind, covers)
       SELECT user_id, 'messages', jsonb_agg(jsonb_build_object('groupId', group_id::text, 'fromSeq', from_seq, 'toSeq', to_seq))
       FROM moved GROUP BY user_id
       RETURNING id::text AS id`,
      [delayMs, SCAN_BATCH],
    );
    return rows.map((r) => r.id);
  }

  /** Recorded e-mails still pending a while after they were due (their job may have been lost with Redis). */
  async stalePending(olderThanMs: number): Promise<string[]> {
    const rows: { id: string }[] = await this.db.query(
      `SELECT id::text AS id FROM email_message WHERE status = 'pending' AND due_at < now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY id LIMIT 1000`,
      [olderThanMs],
    );
    return rows.map((r) => r.id);
  }

  async email(id: string): Promise<EmailRow | undefined> {
    const rows: EmailRow[] = await this.db.query(
      `SELECT e.id::text AS id, e.user_id, e.kind, e.covers, e.status, e.attempts, u.email, u.lang,
              CASE e.kind WHEN 'offers' THEN COALESCE(s.email_offers, true) WHEN 'payments' THEN COALESCE(s.email_payments, true)
                          ELSE COALESCE(s.email_messages, true) END AS email_on
       FROM email_message e JOIN "user" u ON u.id = e.user_id LEFT JOIN notification_setting s ON s.user_id = e.user_id
       WHERE e.id = $1`,
      [id],
    );
    return rows[0];
  }

  /** Of the chats an e-mail covers, those that still have a message it names unread, live, in a chat not muted. */
  async stillDue(userId: string, covers: Cover[]): Promise<DueChat[]> {
    return this.db.query(
      `SELECT g.code AS group_code, g.name AS group_name, count(*)::int AS unread,
              (SELECT COALESCE(json_agg(json_build_object('author', l.author, 'text', l.text)), '[]'::json) FROM (
                 SELECT NULLIF(trim(concat_ws(' ', a.name, a.surname)), '') AS author, m2.text
                 FROM chat_message m2 LEFT JOIN "user" a ON a.id = m2.author_id
                 WHERE m2.group_id = g.id AND m2.seq > GREATEST(p.read_seq, c."fromSeq") AND m2.seq <= c."toSeq"
                   AND ${countsSql('m2')}
                 ORDER BY m2.seq DESC LIMIT 3) l) AS latest
       FROM jsonb_to_recordset($2::jsonb) AS c("groupId" bigint, "fromSeq" bigint, "toSeq" bigint)
       JOIN chat_participant p ON p.group_id = c."groupId" AND p.user_id = $1
       JOIN chat_group g ON g.id = p.group_id
       JOIN chat_message m ON m.group_id = g.id AND m.seq > GREATEST(p.read_seq, c."fromSeq") AND m.seq <= c."toSeq"
       WHERE ${COUNTS_SQL} AND NOT ${MUTED_NOW_SQL}
       GROUP BY g.id, g.code, g.name, p.read_seq, p.user_id, c."fromSeq", c."toSeq"
       ORDER BY max(m.created_at) DESC`,
      [userId, JSON.stringify(covers)],
    );
  }

  async finish(id: string, status: 'sent' | 'skipped' | 'failed', reason: string | null, error?: string): Promise<void> {
    await this.db.query(
      `UPDATE email_message SET status = $2::varchar, reason = $3::varchar, last_error = COALESCE($4::varchar, last_error), finished_at = now(),
              attempts = attempts + CASE WHEN $2::varchar = 'skipped' THEN 0 ELSE 1 END
       WHERE id = $1 AND status = 'pending'`,
      [id, status, reason, error?.slice(0, 500) ?? null],
    );
  }

  async attemptFailed(id: string, error: string): Promise<void> {
    await this.db.query(`UPDATE email_message SET attempts = attempts + 1, last_error = $2 WHERE id = $1`, [id, error.slice(0, 500)]);
  }
}
