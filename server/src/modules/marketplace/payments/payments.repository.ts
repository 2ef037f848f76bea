import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentEntity, PaymentStatus } from './payment.entity';

/** A payment with its offer, job title (in the asked language, else the default) and the other party. */
export interface PartyPaymentRow {
  code: string;
  amount: string;
  currency: string;
  status: PaymentStatus;
  provider: string;
  provider_reference: string | null;
  created_at: Date;
  offer_code: string;
  job_code: string;
  job_title: string | null;
  paid_by_me: boolean;
  other_code: string | null;
  other_name: string | null;
  other_surname: string | null;
}

/** Payment rows, always written in the transaction that moves the offer. */
@Injectable()
export class PaymentsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Payments the user made (as the job's customer) or received (as the offer's provider), newest first. */
  listForParty(userId: string, lang: string | null, offset: number, limit: number): Promise<PartyPaymentRow[]> {
    return this.db.query(
      `WITH mine AS (
         SELECT p.id FROM payment p WHERE p.payer_id = $1
         UNION
         SELECT p.id FROM job_offer o JOIN payment p ON p.offer_id = o.id WHERE o.provider_id = $1
       )
       SELECT p.code, p.amount, p.currency, p.status, p.provider, p.provider_reference, p.created_at,
              o.code AS offer_code, j.code AS job_code, v.title AS job_title, (p.payer_id = $1) AS paid_by_me,
              other.code AS other_code, other.name AS other_name, other.surname AS other_surname
       FROM mine JOIN payment p ON p.id = mine.id
       JOIN job_offer o ON o.id = p.offer_id JOIN job j ON j.id = o.job_id
       LEFT JOIN "user" other ON other.id = CASE WHEN p.payer_id = $1 THEN o.provider_id ELSE j.customer_id END
       LEFT JOIN LATERAL (
         SELECT jv.title FROM job_version jv WHERE jv.job_id = j.id ORDER BY (jv.lang = $2) DESC, jv.is_default DESC LIMIT 1
       ) v ON true
       ORDER BY p.created_at DESC, p.id DESC OFFSET $3 LIMIT $4`,
      [userId, lang, offset, limit],
    );
  }

  /**
   * Settles the offer's pending payment as the payee says (succeeded: it arrived; disputed: it has not), in the
   * move's transaction; undefined when none is pending.
   */
  async settlePending(tx: EntityManager, offerId: string, status: 'succeeded' | 'disputed'): Promise<PaymentEntity | undefined> {
    const rows: Record<string, unknown>[] = await tx.query(
      `WITH settled AS (
         UPDATE payment SET status = $2 WHERE offer_id = $1 AND status = 'pending'
         RETURNING id, code, offer_id, payer_id, amount, currency, status, provider, provider_reference, created_at
       ) SELECT * FROM settled`,
      [offerId, status],
    );
    const row = rows[0];
    if (!row) return undefined;
    return Object.assign(new PaymentEntity(), {
      id: row.id,
      code: row.code,
      offerId: row.offer_id,
      payerId: row.payer_id,
      amount: row.amount,
      currency: row.currency,
      status: row.status,
      provider: row.provider,
      providerReference: row.provider_reference,
      createdAt: row.created_at,
    });
  }

  /** A payment's readable reference: "PAY-", the year (UTC) and the next running number, six digits at least. */
  async nextNumber(tx: EntityManager): Promise<string> {
    const [row]: { reference: string }[] = await tx.query(
      `SELECT 'PAY-' || to_char(now() AT TIME ZONE 'UTC', 'YYYY') || '-' || (SELECT lpad(n::text, greatest(6, length(n::text)), '0') FROM nextval('payment_number_seq') AS n) AS reference`,
    );
    return row.reference;
  }

  async insert(
    tx: EntityManager,
    p: { code: string; offerId: string; payerId: string; amount: string; currency: string; status: PaymentStatus; provider: string; reference: string | null },
  ): Promise<PaymentEntity> {
    const [row]: { id: string; created_at: Date }[] = await tx.query(
      `INSERT INTO payment (code, offer_id, payer_id, amount, currency, status, provider, provider_reference)
       VALUES ($1, $2, $3, $4::numeric, $5, $6, $7, $8) RETURNING id, created_at`,
      [p.code, p.offerId, p.payerId, p.amount, p.currency, p.status, p.provider, p.reference],
    );
    return Object.assign(new PaymentEntity(), {
      id: row.id,
      code: p.code,
      offerId: p.offerId,
      payerId: p.payerId,
      amount: p.amount,
      currency: p.currency,
      status: p.status,
      provider: p.provider,
      providerReference: p.reference,
      createdAt: row.created_at,
    });
  }
}
