import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * E-mail about an offer timer's reminder: `email_message.offer_reminder` names the timer step (`remind-<days>`)
 * an e-mail is about, '' for a move's own e-mail. A reminder's e-mail names the offer's latest move (nothing sent
 * once the offer moves on), so one e-mail per move, reminder step and recipient.
 */
export class OfferReminderEmails1764790000000 implements MigrationInterface {
  name = 'OfferReminderEmails1764790000000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "email_message" ADD "offer_reminder" varchar(32) NOT NULL DEFAULT ''`);
    await q.query(`DROP INDEX "UQ_email_message_offer_event"`);
    await q.query(
      `CREATE UNIQUE INDEX "UQ_email_message_offer_event" ON "email_message" ("offer_event_id", "user_id", "offer_reminder") WHERE "offer_event_id" IS NOT NULL`,
    );
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "email_message" WHERE "offer_reminder" <> ''`);
    await q.query(`DROP INDEX "UQ_email_message_offer_event"`);
    await q.query(`CREATE UNIQUE INDEX "UQ_email_message_offer_event" ON "email_message" ("offer_event_id", "user_id") WHERE "offer_event_id" IS NOT NULL`);
    await q.query(`ALTER TABLE "email_message" DROP COLUMN "offer_reminder"`);
  }
}
