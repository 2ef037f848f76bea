import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';

/** A provider's offer on a job. `version` is the optimistic lock every transition checks and bumps. */
@Entity({ name: 'job_offer' })
export class JobOfferEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ name: 'job_id', type: 'bigint' })
  jobId: string;

  @Column({ name: 'provider_id', type: 'uuid' })
  providerId: string;

  /** the offer's chat (ChatGroupType.JobOffer, targetId = code) */
  @Column({ name: 'group_id', type: 'bigint', nullable: true })
  groupId: string | null;

  @Column({ type: 'smallint', default: OfferStatus.Initial })
  status: OfferStatus;

  @Column({ type: 'timestamptz', nullable: true })
  deadline: Date | null;

  /** numeric(14,2), read as a decimal string */
  @Column({ name: 'price_amount', type: 'numeric', precision: 14, scale: 2, nullable: true })
  priceAmount: string | null;

  @Column({ name: 'price_currency', type: 'char', length: 3, nullable: true })
  priceCurrency: string | null;

  @Column({ name: 'local_price_amount', type: 'numeric', precision: 14, scale: 2, nullable: true })
  localPriceAmount: string | null;

  @Column({ name: 'local_price_currency', type: 'char', length: 3, nullable: true })
  localPriceCurrency: string | null;

  @Column({ type: 'integer', default: 1 })
  version: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

/** The offer's history: every status move, who made it and when. */
@Entity({ name: 'job_offer_event' })
export class JobOfferEventEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ name: 'offer_id', type: 'bigint' })
  offerId: string;

  /** null for the offer's creation */
  @Column({ name: 'from_status', type: 'smallint', nullable: true })
  fromStatus: number | null;

  @Column({ name: 'to_status', type: 'smallint' })
  toStatus: number;

  @Column({ type: 'varchar', length: 32 })
  call: string;

  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at: Date;
}
