import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/**
 * Unread for one participant row `p` of a group whose last seq is `lastSeq`: live messages after the marker
 * that others wrote. Seqs are gap-free (1..last_seq, one message each, see INSERT_MESSAGES_SQL), so that is
 * every seq after the marker minus the ones that don't count: deleted messages and the reader's own live ones.
 * Both are found by one probe of a small partial index each (usually finding nothing), so the cost is per
 * group, not per unread message. Counts are computed, never stored, so they are exact after sends, reads,
 * deletes and joins without any bookkeeping, and every term reads the same snapshot.
 */
export const unreadSql = (lastSeq: string): string => `(${lastSeq} - p.read_seq
   - (SELECT count(*) FROM chat_message m WHERE m.group_id = p.group_id AND m.seq > p.read_seq AND m.deleted_at IS NOT NULL)
   - (SELECT count(*) FROM chat_message m
      WHERE m.group_id = p.group_id AND m.author_id = p.user_id AND m.seq > p.read_seq AND m.deleted_at IS NULL))`;

/** unreadSql for a query that joins the group as `g`; the group list embeds it. */
export const UNREAD_SQL = unreadSql('g.last_seq');

/** The truth of unread counts: read markers and the messages after them, in Postgres. */
@Injectable()
export class UnreadCountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Unread counts of every group of the user that has any; groups with nothing new are skipped by the seq test. */
  byGroup(userId: string): Promise<{ code: string; unread: number }[]> {
    return this.db.query(
      `SELECT g.code, ${UNREAD_SQL}::int AS unread
       FROM chat_participant p JOIN chat_group g ON g.id = p.group_id
       WHERE p.user_id = $1 AND g.last_seq > p.read_seq`,
      [userId],
    );
  }

  /** Per user (by code) and group with anything after the user's marker: the unread count and the group's last seq it counts up to. */
  byUserCodes(userCodes: string[]): Promise<{ user_code: string; code: string; unread: number; last_seq: string }[]> {
    return this.db.query(
      `SELECT u.code AS user_code, g.code, ${UNREAD_SQL}::int AS unread, g.last_seq
       FROM "user" u JOIN chat_participant p ON p.user_id = u.id JOIN chat_group g ON g.id = p.group_id
       WHERE u.code = ANY($1::varchar[]) AND g.last_seq > p.read_seq`,
      [userCodes],
    );
  }

  /** Moves the read marker forward only, never past the group's last message; answers what stays unread. */
  async markRead(groupId: string, userId: string, seq: number): Promise<{ readSeq: number; unread: number; lastSeq: number }> {
    const rows: { read_seq: string; unread: number; last_seq: string }[] = await this.db.query(
      `WITH moved AS (
         UPDATE chat_participant p SET read_seq = GREATEST(p.read_seq, LEAST($3::bigint, g.last_seq))
         FROM chat_group g WHERE g.id = p.group_id AND p.group_id = $1 AND p.user_id = $2
         RETURNING p.group_id, p.user_id, p.read_seq, g.last_seq
       )
       SELECT p.read_seq, p.last_seq, CASE WHEN p.read_seq >= p.last_seq THEN 0 ELSE ${unreadSql('p.last_seq')}::int END AS unread FROM moved p`,
      [groupId, userId, seq],
    );
    return rows.length
      ? { readSeq: Number(rows[0].read_seq), unread: rows[0].unread, lastSeq: Number(rows[0].last_seq) }
      : { readSeq: 0, unread: 0, lastSeq: 0 };
  }
}
