import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** How many of the user's most recently active chats the reply time looks at, and how many of their messages in each. */
const REPLY_CHATS = 30;
const REPLY_MESSAGES_PER_CHAT = 10;
/** Fewer answers than this say nothing about a habit. */
export const REPLY_SAMPLE_MIN = 3;

/**
 * A user's track record from the rows that already exist, each read through an index: settled payments (payer
 * index; the provider's offers index and the one-succeeded-payment-per-offer index) and, for the reply time,
 * the user's chats by last activity and their messages in each (the (group, author, seq) and (group, seq)
 * indexes). Bounded: at most REPLY_CHATS × REPLY_MESSAGES_PER_CHAT index probes, whatever the history's size.
 */
@Injectable()
export class TrackRecordRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Offers the user paid for or was paid for, as customer or provider: deals that closed with a settled payment.
   * The provider's side probes the one-succeeded-payment index per offer (a LATERAL … LIMIT 1): a join let the
   * planner hash the whole payment table for a busy provider (60-90 ms against 4 ms, scripts/bench/track-record.sql).
   */
  async completedDeals(userId: string): Promise<number> {
    const [row]: { n: number }[] = await this.db.query(
      `SELECT ((SELECT count(*) FROM payment p WHERE p.payer_id = $1 AND p.status = 'succeeded')
             + (SELECT count(*) FROM job_offer o
                CROSS JOIN LATERAL (SELECT 1 FROM payment p WHERE p.offer_id = o.id AND p.status = 'succeeded' LIMIT 1) settled
                WHERE o.provider_id = $1))::int AS n`,
      [userId],
    );
    return row.n;
  }

  /**
   * The median time the user took to answer: over their latest messages in their most recently active chats, each
   * one that directly follows someone else's message counts the time between the two. Offer notes (the system's
   * record of a move) and deleted messages are no conversation and are left out on both sides.
   */
  async replySeconds(userId: string): Promise<number | null> {
    const [row]: { median: number | null; n: number }[] = await this.db.query(
      `WITH chats AS (
         SELECT p.group_id FROM chat_participant p JOIN chat_group g ON g.id = p.group_id
         WHERE p.user_id = $1 AND g.last_message_at IS NOT NULL
         ORDER BY g.last_message_at DESC LIMIT $2),
       mine AS (
         SELECT m.group_id, m.seq, m.created_at FROM chats c
         CROSS JOIN LATERAL (
           SELECT m.group_id, m.seq, m.created_at FROM chat_message m
           WHERE m.group_id = c.group_id AND m.author_id = $1 AND m.deleted_at IS NULL AND NOT m.offer_note
           ORDER BY m.seq DESC LIMIT $3) m),
       answers AS (
         SELECT extract(epoch FROM mine.created_at - prev.created_at) AS s FROM mine
         CROSS JOIN LATERAL (
           SELECT q.author_id, q.created_at, q.offer_note FROM chat_message q
           WHERE q.group_id = mine.group_id AND q.seq < mine.seq AND q.deleted_at IS NULL
           ORDER BY q.seq DESC LIMIT 1) prev
         WHERE prev.author_id <> $1 AND NOT prev.offer_note)
       SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY s) AS median, count(*)::int AS n FROM answers`,
      [userId, REPLY_CHATS, REPLY_MESSAGES_PER_CHAT],
    );
    return row.n >= REPLY_SAMPLE_MIN && row.median !== null ? Math.round(Math.max(0, row.median)) : null;
  }

  /** A user by code, within the viewer's instance (null: every instance, for global roles). */
  async visibleUser(code: string, instanceId: string | null): Promise<{ id: string; code: string } | null> {
    const [row]: { id: string; code: string }[] = await this.db.query(
      `SELECT id, code FROM "user" WHERE code = $1 AND ($2::uuid IS NULL OR instance_id = $2::uuid)`,
      [code, instanceId],
    );
    return row ?? null;
  }
}
