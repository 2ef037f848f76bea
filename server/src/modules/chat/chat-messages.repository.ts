import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { ChatMessageType, MESSAGE_PAGE_SIZE, REPLY_SNIPPET_LENGTH } from '#shared/contracts/chat';
import type { ChatReplyPreview } from '#shared/contracts/events';
import { ChatHotPathPool } from './chat-hot-path.pool';
import { INSERT_MESSAGE_SQL, INSERT_TEXT_MESSAGES_SQL } from './chat-message-insert.sql';

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
  /** Absent in the insert statements' answers (a new message is not edited; its reply is known to the caller). */
  edited_at?: Date | null;
  reply_to?: ChatReplyPreview | null;
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
  /** id of the quoted message (checked by the caller to be in the same group); replies take the single statement */
  replyToId?: string | null;
}

/** A row of the insert statements: the message, or only its id for a repeated client key (created false). */
type InsertedRow = MessageRow & { created: boolean; group_type: number; participant_codes: string[] | null };

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
  CASE WHEN u.gravatar THEN u.email END AS author_email, u.avatar_url AS author_avatar_url,
  COALESCE((SELECT array_agg(f.code ORDER BY mf.position) FROM chat_message_file mf JOIN file f ON f.id = mf.file_id
            WHERE mf.message_id = m.id), '{}') AS file_codes,
  m.edited_at, ${replyPreviewColumn('m.reply_to_id')} AS reply_to`;

/** The quoted message as a JSON preview (ChatReplyPreview), or NULL when the id is NULL. */
function replyPreviewColumn(idColumn: string): string {
  return `(SELECT json_build_object('code', r.code, 'seq', r.seq, 'type', r.type, 'userCode', ru.code,
            'message', CASE WHEN r.deleted_at IS NULL THEN left(r.text, ${REPLY_SNIPPET_LENGTH}) ELSE '' END,
            'files', (SELECT count(*) FROM chat_message_file rf WHERE rf.message_id = r.id),
            'deleted', r.deleted_at IS NOT NULL)
          FROM chat_message r LEFT JOIN "user" ru ON ru.id = r.author_id WHERE r.id = ${idColumn})`;
}

const UNIQUE_VIOLATION = '23505';

/**
 * Runs an insert of one message, and once more if it lost a race with the same client key: the loser rolled back
 * (no seq used), and its second run finds the winner's row and answers it as a retry.
 */
export async function againIfClientKeyRaced<T>(input: InsertMessage, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if ((err as { code?: string }).code === UNIQUE_VIOLATION && input.clientKey) return run();
    throw err;
  }
}

@Injectable()
export class ChatMessagesRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly hotPath: ChatHotPathPool,
  ) {}

  /** Inserts a message, or returns the stored one for a repeated client key; null when the group isn't the author's. */
  async insert(input: InsertMessage): Promise<InsertResult | null> {
    // A named statement: each pooled connection parses and plans this CTE once, then only binds values.
    const pool = (this.db.driver as PostgresDriver).master as Pool;
    const { rows } = await againIfClientKeyRaced(input, () =>
      pool.query<InsertedRow>({
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
          input.replyToId ?? null,
        ],
      }),
    );
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

  /**
   * Inserts messages without files in one statement (INSERT_TEXT_MESSAGES_SQL), answering each item as insert()
   * would, in item order. Items must not repeat a (group, author, client key).
   */
  async insertTexts(items: InsertMessage[]): Promise<(InsertResult | null)[]> {
    const { rows } = await this.hotPath.query<InsertedRow & { ord: string }>({
      name: 'chat-insert-text-messages',
      text: INSERT_TEXT_MESSAGES_SQL,
      values: [
        items.map((i) => i.groupCode),
        items.map((i) => i.authorId),
        items.map((i) => i.code),
        items.map((i) => i.type),
        items.map((i) => i.text),
        items.map((i) => i.lang),
        items.map((i) => i.clientKey),
      ],
    });
    const results: (InsertResult | null)[] = items.map(() => null);
    const repeated = new Map<string, { index: number; groupType: number }>();
    for (const { ord, created, group_type, participant_codes, ...row } of rows) {
      const index = Number(ord) - 1;
      if (created) results[index] = { row, created: true, groupType: group_type, participantCodes: participant_codes ?? [] };
      else repeated.set(row.id, { index, groupType: group_type });
    }
    // Retries of stored messages: rare, so their full rows are read again; nothing is fanned out for them.
    if (repeated.size) {
      for (const row of await this.findByIds([...repeated.keys()])) {
        const { index, groupType } = repeated.get(row.id)!;
        results[index] = { row, created: false, groupType, participantCodes: [] };
      }
    }
    return results;
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

  /**
   * An edit of a live message's text: the old translation goes with the old text, and the edit takes the next
   * edit seq. Returns the message as stored, or undefined when it was deleted meanwhile.
   */
  async editText(messageId: string, text: string): Promise<MessageRow | undefined> {
    const rows: { id: string }[] = await this.db.query(
      // A SELECT around the UPDATE: TypeORM answers a bare UPDATE with [rows, count] instead of the rows.
      `WITH e AS (
         UPDATE chat_message SET text = $2, translation = NULL, edited_at = date_trunc('milliseconds', clock_timestamp()),
                edit_seq = nextval('chat_message_edit_seq')
         WHERE id = $1 AND deleted_at IS NULL RETURNING id
       ) SELECT id FROM e`,
      [messageId, text],
    );
    if (!rows.length) return undefined;
    return (await this.findByIds([rows[0].id]))[0];
  }

  /** The group's newest edit seq (0 when nothing was ever edited): where a client's `sync` for edits starts. */
  async newestEditSeq(groupId: string): Promise<number> {
    const [row]: { seq: string | null }[] = await this.db.query(
      `SELECT max(edit_seq) AS seq FROM chat_message WHERE group_id = $1 AND edit_seq IS NOT NULL`,
      [groupId],
    );
    return Number(row?.seq ?? 0);
  }

  /** Messages up to a seq edited after an edit seq, in edit order; one more row tells whether more follow. */
  async editedAfter(
    groupId: string,
    uptoSeq: number,
    afterEditSeq: number,
    limit: number,
  ): Promise<{ rows: (MessageRow & { edit_seq: string })[]; more: boolean }> {
    const rows: (MessageRow & { edit_seq: string })[] = await this.db.query(
      `SELECT ${MESSAGE_COLUMNS}, m.edit_seq FROM chat_message m JOIN chat_group g ON g.id = m.group_id
       LEFT JOIN "user" u ON u.id = m.author_id
       WHERE m.group_id = $1 AND m.edit_seq > $3 AND m.seq <= $2 ORDER BY m.edit_seq ASC LIMIT ${limit + 1}`,
      [groupId, uptoSeq, afterEditSeq],
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
