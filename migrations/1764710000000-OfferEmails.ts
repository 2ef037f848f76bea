import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-mail about offer moves and payments due: `email_message.offer_event_id` names the move an e-mail is about
 * (one e-mail per move and recipient, however often its job runs), and `due_at` is when it may go out (an offer
 * e-mail waits EMAIL_OFFER_DELAY_MS for the recipient to act first; an unread-messages e-mail is due when recorded).
 */
export class OfferEmails1764710000000 implements MigrationInterface {
  name = 'OfferEmails1764710000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "email_message" ADD "due_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
    await q.query(`UPDATE "email_message" SET "due_at" = "created_at"`);
    await q.query(
      `ALTER TABLE "email_message" ADD "offer_event_id" bigint
         CONSTRAINT "FK_email_message_offer_event" REFERENCES "job_offer_event"("id") ON DELETE CASCADE`,
    );
    await q.query(`CREATE UNIQUE INDEX "UQ_email_message_offer_event" ON "email_message" ("offer_event_id", "user_id") WHERE "offer_event_id" IS NOT NULL`);
    await q.query(`DROP INDEX "IDX_email_message_pending"`);
    await q.query(`CREATE INDEX "IDX_email_message_pending" ON "email_message" ("due_at") WHERE "status" = 'pending'`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_email_message_pending"`);
    await q.query(`CREATE INDEX "IDX_email_message_pending" ON "email_message" ("created_at") WHERE "status" = 'pending'`);
    await q.query(`DROP INDEX "UQ_email_message_offer_event"`);
    await q.query(`ALTER TABLE "email_message" DROP COLUMN "offer_event_id"`);
    await q.query(`ALTER TABLE "email_message" DROP COLUMN "due_at"`);
  }
}
