import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type AuditAction =
  'room.watch' | 'room.unwatch' | 'message.delete' | 'report.dismiss' | 'report.delete' | 'report.warn' | 'report.suspend' | 'user.unsuspend';

/** Append-only (a trigger refuses updates and deletes): who observed or moderated which room, and when. */
@Entity({ name: 'audit_log' })
export class AuditLogEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  at: Date;

  @Column({ name: 'instance_id', type: 'uuid' })
  instanceId: string;

  @Column({ name: 'actor_id', type: 'uuid', nullable: true })
  actorId: string | null;

  @Column({ type: 'varchar', length: 32 })
  action: AuditAction;

  @Column({ name: 'group_id', type: 'bigint', nullable: true })
  groupId: string | null;

  @Column({ name: 'message_code', type: 'varchar', length: 32, nullable: true })
  messageCode: string | null;

  @Column({ type: 'jsonb', default: {} })
  details: Record<string, unknown>;
}
