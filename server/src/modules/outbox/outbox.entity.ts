import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A side effect to carry out after commit, written in the same transaction as the change that causes it. */
@Entity({ name: 'outbox' })
export class OutboxEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 64 })
  topic: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'dispatched_at', type: 'timestamptz', nullable: true })
  dispatchedAt: Date | null;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  /** the W3C trace context of the request or socket event that wrote the row; NULL while tracing is off */
  @Column({ type: 'text', nullable: true })
  traceparent: string | null;
}
