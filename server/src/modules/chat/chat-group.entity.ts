import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ChatGroupType } from '#shared/contracts/chat';

@Entity({ name: 'chat_group' })
export class ChatGroupEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ name: 'instance_id', type: 'uuid' })
  instanceId: string;

  @Column({ type: 'smallint' })
  type: ChatGroupType;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  subtitle: string | null;

  @Column({ name: 'target_id', type: 'varchar', length: 64, nullable: true })
  targetId: string | null;

  /** For direct chats: the sorted participant ids, so a chat between the same people is reused. */
  @Column({ name: 'direct_key', type: 'varchar', length: 80, nullable: true })
  directKey: string | null;

  @Column({ name: 'last_seq', type: 'bigint', default: 0 })
  lastSeq: string;

  /** Bumped by a trigger whenever the group's participants change (migration ParticipantsVersion); never written here. */
  @Column({ name: 'participants_version', type: 'bigint', default: 0, insert: false, update: false })
  participantsVersion: string;

  @Column({ name: 'last_message_at', type: 'timestamptz', nullable: true })
  lastMessageAt: Date | null;

  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
