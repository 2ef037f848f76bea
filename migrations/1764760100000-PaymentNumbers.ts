import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * payment_number_seq: the running number of a payment's readable reference ("PAY-2026-000123"), given to a
 * manual payment the payer declared without a reference of their own. Payments that got the internal
 * "manual-<code>" reference before are renumbered, oldest first.
 */
export class PaymentNumbers1764760100000 implements MigrationInterface {
  name = 'PaymentNumbers1764760100000';

  public async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "payment_number_seq"`);
    await q.query(`
      UPDATE payment p SET provider_reference = n.reference
      FROM (
        SELECT id, 'PAY-' || to_char(created_at AT TIME ZONE 'UTC', 'YYYY') || '-' || (SELECT lpad(n::text, greatest(6, length(n::text)), '0') FROM nextval('payment_number_seq') AS n) AS reference
        FROM (SELECT id, created_at FROM payment WHERE provider = 'manual' AND provider_reference = 'manual-' || code ORDER BY created_at, id) o
      ) n
      WHERE p.id = n.id`);
  }

  public async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP SEQUENCE "payment_number_seq"`);
  }
}
