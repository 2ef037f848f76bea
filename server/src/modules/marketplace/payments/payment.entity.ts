import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** pending: declared, waiting for the payee's confirmation; disputed: the payee says it has not arrived. */
export type PaymentStatus = 'pending' | 'succeeded' | 'failed' | 'disputed';

/** A payment for an offer, as recorded by a payment provider; at most one succeeded and one pending payment per offer. */
@Entity({ name: 'payment' })
export class PaymentEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ name: 'offer_id', type: 'bigint' })
  offerId: string;

  @Column({ name: 'payer_id', type: 'uuid', nullable: true })
  payerId: string | null;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amount: string;

  @Column({ type: 'char', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 16 })
  status: PaymentStatus;

  @Column({ type: 'varchar', length: 32 })
  provider: string;

  @Column({ name: 'provider_reference', type: 'varchar', length: 200, nullable: true })
  providerReference: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
