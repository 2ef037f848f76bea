import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A declared payment waits for the payee: offers get the status PaymentDeclared (180) between PaymentPending and
 * Closed, and a payment the provider says has not arrived is 'disputed'. Offers already closed by a payment stay
 * as they are.
 */
export class OfferPaymentDeclared1764500200000 implements MigrationInterface {
  name = 'OfferPaymentDeclared1764500200000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "job_offer" DROP CONSTRAINT "CHK_job_offer_status"`);
    await q.query(`ALTER TABLE "job_offer" ADD CONSTRAINT "CHK_job_offer_status" CHECK ("status" IN (1, 5, 10, 50, 100, 130, 160, 180, 200))`);
    await q.query(`ALTER TABLE "payment" DROP CONSTRAINT "CHK_payment_status"`);
    await q.query(`ALTER TABLE "payment" ADD CONSTRAINT "CHK_payment_status" CHECK ("status" IN ('pending', 'succeeded', 'failed', 'disputed'))`);
    // At most one payment per offer waits for confirmation.
    await q.query(`CREATE UNIQUE INDEX "UQ_payment_offer_pending" ON "payment" ("offer_id") WHERE "status" = 'pending'`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "UQ_payment_offer_pending"`);
    await q.query(`UPDATE "payment" SET "status" = 'failed' WHERE "status" = 'disputed'`);
    await q.query(`ALTER TABLE "payment" DROP CONSTRAINT "CHK_payment_status"`);
    await q.query(`ALTER TABLE "payment" ADD CONSTRAINT "CHK_payment_status" CHECK ("status" IN ('pending', 'succeeded', 'failed'))`);
    await q.query(`UPDATE "job_offer" SET "status" = 160 WHERE "status" = 180`);
    await q.query(`ALTER TABLE "job_offer" DROP CONSTRAINT "CHK_job_offer_status"`);
    await q.query(`ALTER TABLE "job_offer" ADD CONSTRAINT "CHK_job_offer_status" CHECK ("status" IN (1, 5, 10, 50, 100, 130, 160, 200))`);
  }
}
