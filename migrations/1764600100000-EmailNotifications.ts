import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-mail: `chat_participant.emailed_seq` is the newest message of the chat an e-mail already named (never two
 * e-mails for the same messages); `email_message` records each e-mail from decision to outcome (what it covers, so
 * it is re-checked before each attempt); `email_unsubscribe_used` holds the nonces of unsubscribe links used once.
 */
export class EmailNotifications1764600100000 implements MigrationInterface {
  name = 'EmailNotifications1764600100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "chat_participant" ADD "emailed_seq" bigint NOT NULL DEFAULT 0`);
    // Messages from before e-mail existed are not e-mailed: nobody gets a mail about last year's unread chats.
    await q.query(`UPDATE "chat_participant" p SET "emailed_seq" = g."last_seq" FROM "chat_group" g WHERE g."id" = p."group_id" AND g."last_seq" > 0`);
    await q.query(`
      CREATE TABLE "email_message" (
        "id" bigserial NOT NULL,
        "user_id" uuid NOT NULL,
        "kind" varchar(16) NOT NULL,
        "covers" jsonb NOT NULL,
        "status" varchar(16) NOT NULL DEFAULT 'pending',
        "reason" varchar(64),
        "attempts" integer NOT NULL DEFAULT 0,
        "last_error" varchar(500),
        "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        "finished_at" TIMESTAMP WITH TIME ZONE,
        CONSTRAINT "PK_email_message" PRIMARY KEY ("id"),
        CONSTRAINT "FK_email_message_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX "IDX_email_message_pending" ON "email_message" ("created_at") WHERE "status" = 'pending'`);
    await q.query(`CREATE INDEX "IDX_email_message_user" ON "email_message" ("user_id", "id")`);
    await q.query(`
      CREATE TABLE "email_unsubscribe_used" (
        "nonce" varchar(32) NOT NULL,
        "used_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_email_unsubscribe_used" PRIMARY KEY ("nonce")
      )`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "email_unsubscribe_used"`);
    await q.query(`DROP TABLE "email_message"`);
    await q.query(`ALTER TABLE "chat_participant" DROP COLUMN "emailed_seq"`);
  }
}
