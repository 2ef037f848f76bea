import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Replies and edits. `reply_to_id` points at the quoted message of the same group (a deleted original stays as
 * its marker, so the link is kept). An edit stamps `edited_at` and takes `edit_seq` from one sequence for all
 * groups: a client that reconnects asks `sync` for the edits after the highest edit seq it has seen, so an edit
 * of an old message is never missed, without touching the group row the hot path locks.
 */
export class MessageReplyEdit1764236400000 implements MigrationInterface {
  name = 'MessageReplyEdit1764236400000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "chat_message_edit_seq" AS bigint`);
    await q.query(`
      ALTER TABLE "chat_message"
        ADD COLUMN "reply_to_id" bigint,
        ADD COLUMN "edited_at" timestamptz,
        ADD COLUMN "edit_seq" bigint,
        ADD CONSTRAINT "FK_chat_message_reply_to" FOREIGN KEY ("reply_to_id") REFERENCES "chat_message" ("id") ON DELETE SET NULL`);
    await q.query(`CREATE INDEX "IDX_chat_message_group_edit_seq" ON "chat_message" ("group_id", "edit_seq") WHERE "edit_seq" IS NOT NULL`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_chat_message_group_edit_seq"`);
    await q.query(`
      ALTER TABLE "chat_message"
        DROP CONSTRAINT "FK_chat_message_reply_to",
        DROP COLUMN "edit_seq",
        DROP COLUMN "edited_at",
        DROP COLUMN "reply_to_id"`);
    await q.query(`DROP SEQUENCE "chat_message_edit_seq"`);
  }
}
