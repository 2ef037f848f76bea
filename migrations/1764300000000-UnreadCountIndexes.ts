import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Unread counts per group as (last seq - read marker) minus the messages after the marker that don't count:
 * the deleted ones and the reader's own live ones. These two indexes find those with one probe per group, so a
 * count no longer walks every unread message (see docs/hot-path.md, "Unread count").
 */
export class UnreadCountIndexes1764300000000 implements MigrationInterface {
  name = 'UnreadCountIndexes1764300000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "IDX_chat_message_deleted" ON "chat_message" ("group_id", "seq") WHERE "deleted_at" IS NOT NULL`);
    await q.query(`CREATE INDEX "IDX_chat_message_author_live" ON "chat_message" ("group_id", "author_id", "seq") WHERE "deleted_at" IS NULL`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_chat_message_author_live"`);
    await q.query(`DROP INDEX "IDX_chat_message_deleted"`);
  }
}
