import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * chat_message_translation.seq: each stored translation takes a number from one sequence (a translation stored
 * again takes a new one), so `sync` can hand a reconnecting reader the translations of messages it already holds
 * that were stored after the seq it last saw. Indexed by language: a reader asks for their own language only.
 */
export class TranslationSeq1764700000000 implements MigrationInterface {
  name = 'TranslationSeq1764700000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "chat_message_translation_seq" AS bigint`);
    await q.query(`ALTER TABLE "chat_message_translation" ADD COLUMN "seq" bigint NOT NULL DEFAULT nextval('chat_message_translation_seq')`);
    await q.query(`ALTER SEQUENCE "chat_message_translation_seq" OWNED BY "chat_message_translation"."seq"`);
    await q.query(`CREATE INDEX "IDX_chat_message_translation_lang_seq" ON "chat_message_translation" ("lang", "seq")`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_chat_message_translation_lang_seq"`);
    await q.query(`ALTER TABLE "chat_message_translation" DROP COLUMN "seq"`);
  }
}
