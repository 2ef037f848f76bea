import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A browser's push subscription (RFC 8030 endpoint + RFC 8291 keys), one row per endpoint. */
@Entity({ name: 'push_subscription' })
export class PushSubscriptionEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'varchar', length: 2048 })
  endpoint: string;

  @Column({ type: 'varchar', length: 128 })
  p256dh: string;

  @Column({ type: 'varchar', length: 64 })
  auth: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  /** last registration or accepted push; pruned after PUSH_SUBSCRIPTION_MAX_IDLE_DAYS */
  @Column({ name: 'last_used_at', type: 'timestamptz', default: () => 'now()' })
  lastUsedAt: Date;
}
