import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

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
}
