import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { MessageUpdatedPayload } from '#shared/contracts/socket-events';

/** What a message row needs for its reader's translation: its id and the field to fill. */
export interface TranslatableRow {
  id: string;
  translation: string | null;
}

/** Reads the machine translations the worker stores (one row per message and language). */
@Injectable()
export class MessageTranslationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Gives each row the translation of its current text into the reader's language (`lang`, else the reader's
   * stored language), or null when there is none yet. One query for the whole page.
   */
  async forReader<T extends TranslatableRow>(rows: T[], readerId: string, lang?: string | null): Promise<T[]> {
    if (!rows.length) return rows;
    const found: { message_id: string; text: string }[] = await this.db.query(
      `SELECT t.message_id, t.text FROM chat_message_translation t JOIN chat_message m ON m.id = t.message_id
       WHERE t.message_id = ANY($1::bigint[]) AND t.lang = COALESCE($2, (SELECT lang FROM "user" WHERE id = $3))
         AND t.source_md5 = md5(m.text) AND m.deleted_at IS NULL`,
      [rows.map((r) => r.id), lang ?? null, readerId],
    );
    const byId = new Map(found.map((f) => [String(f.message_id), f.text]));
    for (const row of rows) row.translation = byId.get(String(row.id)) ?? null;
    return rows;
  }

  /**
   * The newest translation seq in the reader's language: translations stored after it are not in what is read
   * now, so `sync` asks for them from here. Read before the page or answer it goes with.
   */
  async newestSeq(readerId: string): Promise<number> {
    const [row]: { seq: string | null }[] = await this.db.query(
      `SELECT max(seq) AS seq FROM chat_message_translation WHERE lang = (SELECT lang FROM "user" WHERE id = $1)`,
      [readerId],
    );
    return Number(row?.seq ?? 0);
  }

  /**
   * The translations into the reader's language stored after `afterSeq` of the group's messages up to `uptoSeq`
   * (the ones a reconnecting client already holds), of their current text, in the order they were stored; one
   * more row tells whether more follow.
   */
  async storedAfter(
    groupId: string,
    groupCode: string,
    uptoSeq: number,
    afterSeq: number,
    readerId: string,
    limit: number,
  ): Promise<{ updates: MessageUpdatedPayload[]; lastSeq: number | null; more: boolean }> {
    const rows: { code: string; text: string; edited_at: Date | null; seq: string }[] = await this.db.query(
      `SELECT m.code, t.text, m.edited_at, t.seq FROM chat_message_translation t JOIN chat_message m ON m.id = t.message_id
       WHERE t.lang = (SELECT lang FROM "user" WHERE id = $4) AND t.seq > $3 AND m.group_id = $1 AND m.seq <= $2
         AND t.source_md5 = md5(m.text) AND m.deleted_at IS NULL
       ORDER BY t.seq ASC LIMIT ${limit + 1}`,
      [groupId, uptoSeq, afterSeq, readerId],
    );
    const kept = rows.slice(0, limit);
    return {
      updates: kept.map((r) => ({
        groupCode,
        code: r.code,
        translation: r.text,
        sourceEditedAt: r.edited_at ? new Date(r.edited_at).toISOString() : null,
      })),
      lastSeq: kept.length ? Number(kept[kept.length - 1].seq) : null,
      more: rows.length > limit,
    };
  }
}
