import { MigrationInterface, QueryRunner } from 'typeorm';

/** The payments screen lists a user's payments as payer (this index) and as provider (through job_offer's provider index). */
export class PaymentPayerIndex1764201600000 implements MigrationInterface {
  name = 'PaymentPayerIndex1764201600000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "IDX_payment_payer" ON "payment" ("payer_id", "created_at" DESC)`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_payment_payer"`);
  }
}
