import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChatMessageType, MESSAGE_PAGE_SIZE, REPLY_SNIPPET_LENGTH } from '#shared/contracts/chat';
import type { ChatReplyPreview, OfferNoteData } from '#shared/contracts/events';
import { MESSAGE_EDITED_TOPIC } from '#shared/contracts/translation';
import { ChatHotPathPool } from './send/chat-hot-path.pool';
import { INSERT_MESSAGES_SQL, offPlatformSql } from './send/chat-message-insert.sql';
import { ParticipantCodesCache } from './participant-codes.cache';

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
  /** one of the marketplace's offer notes (set only by the code that posts them) */
  offer_note: boolean;
  /** what an offer note's move did (set with the note by the marketplace), else null */
  offer_note_data: OfferNoteData | null;
  /** sent in an offer's chat before it was Agreed with contact details or a request to pay off Parley */
  off_platform: boolean;
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
  /** id of the quoted message (checked by the caller to be in the same group) */
  replyToId?: string | null;
  /** an offer note posted by the marketplace (never set for a user's send) */
  offerNote?: boolean;
  /** the offer note's data (only with offerNote) */
  offerNoteData?: OfferNoteData | null;
  /** the text reads as off-platform (detectOffPlatform); the statement marks it only in an offer's chat before Agreed */
  offPlatform?: boolean;
  /** the W3C trace context of the send, for its outbox row (set by the batcher while tracing) */
  traceparent?: string;
}

/** An answer row of INSERT_MESSAGES_SQL: the message, or only its id for a repeated client key (created false). */
type InsertedRow = Omit<MessageRow, 'file_codes'> & {
  ord: string;
  created: boolean;
  group_type: number;
  participants_version: string;
  participant_codes: string[] | null;
};

export interface InsertResult {
  row: MessageRow;
  created: boolean;
  groupType: number;
  /** every participant's code, for fan-out; empty for a repeated client key */
  participantCodes: string[];
}

const MESSAGE_COLUMNS = `
  m.id, m.code, m.group_id, g.code AS group_code, m.seq, m.type, m.text, m.lang, m.translation, m.client_key,
  m.created_at, m.deleted_at, m.offer_note, m.offer_note_data, m.off_platform, u.code AS author_code, u.name AS author_name, u.surname AS author_surname,
  CASE WHEN u.gravatar THEN u.email END AS author_email, u.avatar_url AS author_avatar_url,
  COALESCE((SELECT array_agg(f.code ORDER BY mf.position) FROM chat_message_file mf JOIN file f ON f.id = mf.file_id
            WHERE mf.message_id = m.id), '{}') AS file_codes,
  m.edited_at, ${replyPreviewColumn('m.reply_to_id')} AS reply_to`;

/** The quoted message as a JSON preview (ChatReplyPreview), or NULL when the id is NULL. */
function replyPreviewColumn(idColumn: string): string {
  return `(SELECT json_build_object('code', r.code, 'seq', r.seq, 'type', r.type, 'userCode', ru.code,
            'message', CASE WHEN r.deleted_at IS NULL THEN left(r.text, ${REPLY_SNIPPET_LENGTH}) ELSE '' END,
            'files', (SELECT count(*) FROM chat_message_file rf WHERE rf.message_id = r.id),
            'deleted', r.deleted_at IS NOT NULL, 'offerNote', r.offer_note AND r.deleted_at IS NULL)
          FROM chat_message r LEFT JOIN "user" ru ON ru.id = r.author_id WHERE r.id = ${idColumn})`;
}

@Injectable()
export class ChatMessagesRepository {
  private readonly participants = new ParticipantCodesCache();

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly hotPath: ChatHotPathPool,
  ) {}

  /**
   * Stores messages (with files or none) in one statement (INSERT_MESSAGES_SQL) and answers each item in item
   * order: the stored message, the earlier one for a repeated client key, or null when the group isn't the
   * author's. Items must not repeat a (group, author, client key).
   */
  async insertMessages(items: InsertMessage[]): Promise<(InsertResult | null)[]> {
    const files = items.flatMap((item, i) => item.fileIds.map((fileId, position) => ({ ord: i + 1, fileId, position })));
    // The codes each item's group had when the batch was sent: what a row without codes stands for.
    const known = items.map((i) => this.participants.get(i.groupCode));
    // A named statement: each hot-path connection parses and plans it once, then only binds values.
    const { rows } = await this.hotPath.query<InsertedRow>({
      name: 'chat-insert-messages',
      text: INSERT_MESSAGES_SQL,
      values: [
        items.map((i) => i.groupCode),
        items.map((i) => i.authorId),
        items.map((i) => i.code),
        items.map((i) => i.type),
        items.map((i) => i.text),
        items.map((i) => i.lang),
        items.map((i) => i.clientKey),
        files.map((f) => f.ord),
        files.map((f) => f.fileId),
        files.map((f) => f.position),
        items.map((i) => i.replyToId ?? null),
        known.map((k) => k?.version ?? null),
        items.map((i) => i.offerNote === true),
        items.map((i) => (i.offerNote === true && i.offerNoteData ? JSON.stringify(i.offerNoteData) : null)),
        items.map((i) => i.offPlatform === true),
        items.map((i) => i.traceparent ?? null),
      ],
    });
    const results: (InsertResult | null)[] = items.map(() => null);
    const repeated = new Map<string, { index: number; groupType: number }>();
    for (const { ord, created, group_type, participants_version, participant_codes, ...row } of rows) {
      const index = Number(ord) - 1;
      if (created) {
        const stored: MessageRow = { ...row, file_codes: items[index].fileCodes };
        const participants = participant_codes ? { version: participants_version, codes: participant_codes } : known[index]!;
        if (participant_codes) this.participants.remember(row.group_code, participants);
        results[index] = { row: stored, created: true, groupType: group_type, participantCodes: participants.codes };
      } else repeated.set(row.id, { index, groupType: group_type });
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
   * An edit of a live message's text: the old translations go with the old text, the edit takes the next edit
   * seq, and its outbox row has the new text translated. Returns the message as stored, or undefined when it was deleted meanwhile.
   */
  async editText(messageId: string, text: string, offPlatform: boolean): Promise<MessageRow | undefined> {
    const rows: { id: string }[] = await this.db.query(
      // A SELECT around the UPDATE: TypeORM answers a bare UPDATE with [rows, count] instead of the rows.
      `WITH e AS (
         UPDATE chat_message m SET text = $2, translation = NULL, edited_at = date_trunc('milliseconds', clock_timestamp()),
                edit_seq = nextval('chat_message_edit_seq'), off_platform = ${offPlatformSql('$3::boolean', 'g.type', 'g.target_id')}
         FROM chat_group g
         WHERE m.id = $1 AND m.deleted_at IS NULL AND g.id = m.group_id RETURNING m.id, m.group_id
       ), untranslated AS (DELETE FROM chat_message_translation t USING e WHERE t.message_id = e.id RETURNING 1
       ), outboxed AS (
         INSERT INTO outbox (topic, payload)
         SELECT '${MESSAGE_EDITED_TOPIC}', jsonb_build_object('groupId', e.group_id, 'messageId', e.id) FROM e RETURNING 1
       ) SELECT id FROM e`,
      [messageId, text, offPlatform],
    );
    if (!rows.length) return undefined;
    return (await this.findByIds([rows[0].id]))[0];
  }

  /** The group's newest edit seq (0 when nothing was ever edited): where a client's `sync` for edits starts. */
  async newestEditSeq(groupId: string): Promise<number> {
    const [row]: { seq: string | null }[] = await this.db.query(`SELECT max(edit_seq) AS seq FROM chat_message WHERE group_id = $1 AND edit_seq IS NOT NULL`, [
      groupId,
    ]);
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

  /** Turns a message into a deleted marker: its text, translations and file links are removed. */
  async markDeleted(messageId: string, actorId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH d AS (
         UPDATE chat_message SET deleted_at = now(), deleted_by = $2, text = '', translation = NULL
         WHERE id = $1 AND deleted_at IS NULL RETURNING id
       ), unlinked AS (DELETE FROM chat_message_file USING d WHERE message_id = d.id RETURNING 1
       ), untranslated AS (DELETE FROM chat_message_translation t USING d WHERE t.message_id = d.id RETURNING 1)
       SELECT id FROM d`,
      [messageId, actorId],
    );
    return rows.length > 0;
  }
}
