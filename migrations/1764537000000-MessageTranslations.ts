import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Machine translations of chat messages: one row per message and language, with the engine that made it and the
 * md5 of the text it translates (a reader is only given a translation of the message's current text). An edit and a
 * delete remove a message's rows in their own statement; deleting the message row (a group's deletion) cascades.
 */
export class MessageTranslations1764537000000 implements MigrationInterface {
  name = 'MessageTranslations1764537000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "chat_message_translation" (
        "message_id" bigint NOT NULL,
        "lang" varchar(3) NOT NULL,
        "text" text NOT NULL,
        "engine" varchar(32) NOT NULL,
        "source_md5" char(32) NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "PK_chat_message_translation" PRIMARY KEY ("message_id", "lang"),
        CONSTRAINT "FK_chat_message_translation_message" FOREIGN KEY ("message_id") REFERENCES "chat_message"("id") ON DELETE CASCADE
      )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "chat_message_translation"`);
  }
}
