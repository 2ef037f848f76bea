import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type PushStatus = 'queued' | 'skipped' | 'sent' | 'retrying' | 'failed' | 'subscription-removed';

/** One step in the life of a notification to one user (and, once sending, one subscription). */
@Entity({ name: 'push_notification' })
export class PushNotificationEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at: Date;

  @Column({ name: 'outbox_id', type: 'bigint' })
  outboxId: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 32 })
  kind: string;

  @Column({ type: 'varchar', length: 32 })
  status: PushStatus;

  @Column({ type: 'varchar', length: 64, nullable: true })
  reason: string | null;

  @Column({ name: 'http_status', type: 'smallint', nullable: true })
  httpStatus: number | null;

  @Column({ name: 'subscription_id', type: 'bigint', nullable: true })
  subscriptionId: string | null;

  /** the push service's origin (never the full endpoint, which is a capability) */
  @Column({ name: 'push_service', type: 'varchar', length: 300, nullable: true })
  pushService: string | null;

  /** the group code of a chat push, the offer code of an offer push */
  @Column({ type: 'varchar', length: 64, nullable: true })
  ref: string | null;
}
