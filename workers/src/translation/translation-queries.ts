import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ChatMessageType } from '#shared/contracts/chat';
import type { OutboxQueryable } from '../outbox/outbox-job-owner';
import type { LanguagePair } from './translation-engine';

export interface MessageToTranslate {
  id: string;
  code: string;
  group_code: string;
  group_type: number;
  author_id: string | null;
  type: number;
  /** one of the marketplace's offer notes (never machine-translated: they are texts in every locale) */
  offer_note: boolean;
  text: string;
  /** the message's language, else its author's */
  lang: string | null;
  deleted: boolean;
  edited_at: Date | null;
  seq: string;
  created_at: Date;
}

export interface Reader {
  code: string;
  lang: string;
}

/** Postgres' md5() of the same text: what a translation row records of the text it translates. */
export const sourceMd5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** Every query the translate job runs, and the relay's test of which messages need a job at all. */
@Injectable()
export class TranslationQueries {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async message(messageId: string): Promise<MessageToTranslate | undefined> {
    const rows: MessageToTranslate[] = await this.db.query(
      `SELECT m.id, m.code, g.code AS group_code, g.type AS group_type, m.author_id, m.type, m.offer_note, m.text,
              COALESCE(m.lang, a.lang) AS lang, m.deleted_at IS NOT NULL AS deleted, m.edited_at, m.seq, m.created_at
       FROM chat_message m JOIN chat_group g ON g.id = m.group_id LEFT JOIN "user" a ON a.id = m.author_id
       WHERE m.id = $1`,
      [messageId],
    );
    return rows[0];
  }

  /** The group's participants other than the author, with the language each reads in. */
  readers(groupId: string, authorId: string | null): Promise<Reader[]> {
    return this.db.query(
      `SELECT u.code, u.lang FROM chat_participant p JOIN "user" u ON u.id = p.user_id
       WHERE p.group_id = $1 AND p.user_id IS DISTINCT FROM $2`,
      [groupId, authorId],
    );
  }

  /** The languages the message already has a translation of its current text in (a replayed job skips them). */
  async translatedLanguages(messageId: string, md5: string): Promise<Set<string>> {
    const rows: { lang: string }[] = await this.db.query(`SELECT lang FROM chat_message_translation WHERE message_id = $1 AND source_md5 = $2`, [
      messageId,
      md5,
    ]);
    return new Set(rows.map((r) => r.lang));
  }

  /**
   * Stores a translation only while the message is live and still has the text it translates (an edit or a
   * delete meanwhile: nothing is stored). Answers whether it was stored.
   */
  async store(messageId: string, lang: string, text: string, engine: string, md5: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO chat_message_translation (message_id, lang, text, engine, source_md5)
       SELECT m.id, $2::text, $3::text, $4::text, $5::text FROM chat_message m WHERE m.id = $1 AND m.deleted_at IS NULL AND md5(m.text) = $5::text
       ON CONFLICT (message_id, lang) DO UPDATE SET text = EXCLUDED.text, engine = EXCLUDED.engine, source_md5 = EXCLUDED.source_md5, created_at = now(),
         seq = nextval('chat_message_translation_seq')
       RETURNING 1`,
      [messageId, lang, text, engine, md5],
    );
    return rows.length > 0;
  }

  /**
   * Of these messages, the ones some engine could translate for a reader: live authored text messages with another
   * participant who reads a language the message's language has a pair into. In the relay's transaction.
   */
  async translatable(messageIds: string[], pairs: LanguagePair[], db: OutboxQueryable): Promise<Set<string>> {
    if (!messageIds.length || !pairs.length) return new Set();
    const rows = (await db.query(
      `SELECT m.id FROM chat_message m LEFT JOIN "user" a ON a.id = m.author_id
       WHERE m.id = ANY($1::bigint[]) AND m.deleted_at IS NULL AND m.type = ${ChatMessageType.Text} AND m.author_id IS NOT NULL AND NOT m.offer_note
         AND EXISTS (
           SELECT 1 FROM chat_participant p JOIN "user" u ON u.id = p.user_id
           JOIN unnest($2::text[], $3::text[]) AS pair(src, dst) ON pair.src = COALESCE(m.lang, a.lang) AND pair.dst = u.lang
           WHERE p.group_id = m.group_id AND p.user_id <> m.author_id)`,
      [messageIds, pairs.map((p) => p.from), pairs.map((p) => p.to)],
    )) as { id: string }[];
    return new Set(rows.map((r) => String(r.id)));
  }
}
