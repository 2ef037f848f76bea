import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PaymentEntity, PaymentStatus } from './payment.entity';

/** Payment rows, always written in the transaction that moves the offer. */
@Injectable()
export class PaymentsRepository {
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
