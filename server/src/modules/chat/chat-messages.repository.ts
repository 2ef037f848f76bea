import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { ChatMessageType, MESSAGE_PAGE_SIZE } from '../../contracts/chat';

/** A message row joined with what a response needs: the group code, the author and the file codes. */
export interface MessageRow {
  id: string;
  code: string;
  group_id: string;
  group_code: string;
  seq: string;
  type: number;
  text: string;
  lang: string | null;
  translation: string | null;
  client_key: string | null;
  created_at: Date;
  deleted_at: Date | null;
  author_code: string | null;
  author_name: string | null;
  author_surname: string | null;
  author_email: string | null;
  author_avatar_url: string | null;
  file_codes: string[];
}

export interface InsertMessage {
  groupCode: string;
  authorId: string | null;
  code: string;
  type: ChatMessageType;
  text: string;
  lang: string | null;
  clientKey: string | null;
  fileIds: string[];
  fileCodes: string[];
}

export interface InsertResult {
  row: MessageRow;
  created: boolean;
  groupType: number;
  /** every participant's code, for fan-out; empty for a repeated client key */
  participantCodes: string[];
}

const MESSAGE_COLUMNS = `
  m.id, m.code, m.group_id, g.code AS group_code, m.seq, m.type, m.text, m.lang, m.translation, m.client_key,
  m.created_at, m.deleted_at, u.code AS author_code, u.name AS author_name, u.surname AS author_surname,
  u.email AS author_email, u.avatar_url AS author_avatar_url,
  COALESCE((SELECT array_agg(f.code ORDER BY mf.position) FROM chat_message_file mf JOIN file f ON f.id = mf.file_id
            WHERE mf.message_id = m.id), '{}') AS file_codes`;

/**
 * The hot path: membership check, gap-free seq, idempotent insert, the sender's read marker, the file
 * links and the outbox row, in ONE statement (one round trip). The group row lock taken by the seq bump
 * serialises senders per group, so seqs are gap-free; a failed statement rolls the bump back.
 */
const INSERT_MESSAGE_SQL = `
WITH target AS (
  SELECT cg.id, cg.type FROM chat_group cg
  WHERE cg.code = $1 AND ($2::uuid IS NULL OR EXISTS (
    SELECT 1 FROM chat_participant p WHERE p.group_id = cg.id AND p.user_id = $2))
),
existing AS (
  SELECT m.id FROM chat_message m, target
  WHERE m.group_id = target.id AND m.author_id = $2 AND m.client_key = $7
),
bumped AS (
  UPDATE chat_group cg SET last_seq = cg.last_seq + 1, last_message_at = now()
  FROM target WHERE cg.id = target.id AND NOT EXISTS (SELECT 1 FROM existing)
  RETURNING cg.id, cg.last_seq
),
inserted AS (
  INSERT INTO chat_message (code, group_id, seq, author_id, type, text, lang, client_key, created_at)
  SELECT $3, bumped.id, bumped.last_seq, $2, $4, $5, $6, $7, date_trunc('milliseconds', clock_timestamp()) FROM bumped
  RETURNING id, code, group_id, seq, type, text, lang, translation, client_key, created_at, deleted_at
),
read_marker AS (
  UPDATE chat_participant p SET read_seq = inserted.seq FROM inserted
  WHERE p.group_id = inserted.group_id AND p.user_id = $2 AND p.read_seq < inserted.seq
  RETURNING 1
),
linked_files AS (
  INSERT INTO chat_message_file (message_id, file_id, position)
  SELECT inserted.id, f.file_id, f.position - 1 FROM inserted, unnest($8::bigint[]) WITH ORDINALITY AS f(file_id, position)
  RETURNING file_id
),
files_bound AS (
  UPDATE file SET group_id = inserted.group_id FROM inserted
  WHERE file.id = ANY($8::bigint[]) AND file.group_id IS NULL
  RETURNING 1
),
outboxed AS (
  INSERT INTO outbox (topic, payload)
  SELECT 'message.created', jsonb_build_object('groupId', inserted.group_id, 'messageId', inserted.id, 'seq', inserted.seq)
  FROM inserted
  RETURNING id
)
SELECT i.*, $1::varchar AS group_code, u.code AS author_code, u.name AS author_name, u.surname AS author_surname,
       u.email AS author_email, u.avatar_url AS author_avatar_url, $9::varchar[] AS file_codes, true AS created,
       (SELECT type FROM target) AS group_type,
       -- One primary-key lookup per participant (a join here may be planned as a scan of every user).
       (SELECT array_agg((SELECT pu.code FROM "user" pu WHERE pu.id = pp.user_id)) FROM chat_participant pp
        WHERE pp.group_id = i.group_id) AS participant_codes
FROM inserted i LEFT JOIN "user" u ON u.id = $2
UNION ALL
SELECT e.id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, false,
       (SELECT type FROM target), NULL
FROM existing e`;

@Injectable()
export class ChatMessagesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Inserts a message, or returns the stored one for a repeated client key; null when the group isn't the author's. */
  async insert(input: InsertMessage): Promise<InsertResult | null> {
    let rows: (MessageRow & { created: boolean; group_type: number; participant_codes: string[] | null })[];
    try {
      // A named statement: each pooled connection parses and plans this CTE once, then only binds values.
      const pool = (this.db.driver as PostgresDriver).master as Pool;
      ({ rows } = await pool.query({
        name: 'chat-insert-message',
        text: INSERT_MESSAGE_SQL,
        values: [
          input.groupCode,
          input.authorId,
          input.code,
          input.type,
          input.text,
          input.lang,
          input.clientKey,
          input.fileIds,
          input.fileCodes,
        ],
      }));
    } catch (err) {
      // Two sends with the same client key raced: the loser rolled back (no seq used); return the winner's row.
      if ((err as { code?: string }).code === '23505' && input.clientKey) return this.insert(input);
      throw err;
    }
    if (rows.length === 0) return null;
    const [first] = rows;
    if (first.created) {
      const { created: _, group_type, participant_codes, ...row } = first;
      return { row, created: true, groupType: group_type, participantCodes: participant_codes ?? [] };
    }
    // A retry of a stored message: rare, so the full row is read again; nothing is fanned out for it.
    const [row] = await this.findByIds([first.id]);
    return { row, created: false, groupType: first.group_type, participantCodes: [] };
  }

  async findByIds(ids: string[]): Promise<MessageRow[]> {
    return this.db.query(
      `SELECT ${MESSAGE_COLUMNS} FROM chat_message m JOIN chat_group g ON g.id = m.group_id
       LEFT JOIN "user" u ON u.id = m.author_id WHERE m.id = ANY($1::bigint[]) ORDER BY m.seq`,
      [ids],
    );
  }

  findByCode(groupId: string, code: string): Promise<MessageRow | undefined> {
    return this.db
      .query(
        `SELECT ${MESSAGE_COLUMNS} FROM chat_message m JOIN chat_group g ON g.id = m.group_id
         LEFT JOIN "user" u ON u.id = m.author_id WHERE m.group_id = $1 AND m.code = $2`,
        [groupId, code],
      )
      .then((rows: MessageRow[]) => rows[0]);
  }

  /** The newest page, or the page before a time or seq: newest last; one more row tells whether older ones exist. */
  async pageBefore(groupId: string, before: { time?: Date; seq?: number }): Promise<{ rows: MessageRow[]; more: boolean }> {
    const where = before.seq !== undefined ? 'AND m.seq < $2' : before.time ? 'AND m.created_at < $2' : '';
    const params: unknown[] = [groupId];
    if (before.seq !== undefined) params.push(before.seq);
    else if (before.time) params.push(before.time);
    const rows: MessageRow[] = await this.db.query(
      `SELECT ${MESSAGE_COLUMNS} FROM chat_message m JOIN chat_group g ON g.id = m.group_id
       LEFT JOIN "user" u ON u.id = m.author_id
       WHERE m.group_id = $1 ${where}
       ORDER BY ${before.time && before.seq === undefined ? 'm.created_at DESC, m.seq DESC' : 'm.seq DESC'}
       LIMIT ${MESSAGE_PAGE_SIZE + 1}`,
      params,
    );
    const more = rows.length > MESSAGE_PAGE_SIZE;
    return { rows: rows.slice(0, MESSAGE_PAGE_SIZE).reverse(), more };
  }

  /** Messages after a seq, oldest first, for catching up. */
  async pageAfter(groupId: string, afterSeq: number, limit = MESSAGE_PAGE_SIZE): Promise<{ rows: MessageRow[]; more: boolean }> {
    const rows: MessageRow[] = await this.db.query(
      `SELECT ${MESSAGE_COLUMNS} FROM chat_message m JOIN chat_group g ON g.id = m.group_id
       LEFT JOIN "user" u ON u.id = m.author_id
       WHERE m.group_id = $1 AND m.seq > $2 ORDER BY m.seq ASC LIMIT ${limit + 1}`,
      [groupId, afterSeq],
    );
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  /** Turns a message into a deleted marker: its text, translation and file links are removed. */
  async markDeleted(messageId: string, actorId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH d AS (
         UPDATE chat_message SET deleted_at = now(), deleted_by = $2, text = '', translation = NULL
         WHERE id = $1 AND deleted_at IS NULL RETURNING id
       ), unlinked AS (DELETE FROM chat_message_file USING d WHERE message_id = d.id RETURNING 1)
       SELECT id FROM d`,
      [messageId, actorId],
    );
    return rows.length > 0;
  }
}
