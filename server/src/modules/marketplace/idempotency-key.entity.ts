import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The first result of a call made with an Idempotency-Key, per user, kept IDEMPOTENCY_KEY_TTL_HOURS. */
@Entity({ name: 'idempotency_key' })
export class IdempotencyKeyEntity {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  key: string;

  /** sha256 of the call, job, offer and body: the same key on another request is refused */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode: number | null;

  @Column({ type: 'jsonb', nullable: true })
  response: unknown;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;
}
