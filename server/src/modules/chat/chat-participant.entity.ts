import { Column, Entity, PrimaryColumn } from 'typeorm';
import { ParticipantRole } from '#shared/contracts/chat';

@Entity({ name: 'chat_participant' })
export class ChatParticipantEntity {
  @PrimaryColumn({ name: 'group_id', type: 'bigint' })
  groupId: string;

  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'smallint', default: ParticipantRole.Member })
  role: ParticipantRole;

  /** The seq of the newest message this participant has read. */
  @Column({ name: 'read_seq', type: 'bigint', default: 0 })
  readSeq: string;

  @Column({ name: 'joined_at', type: 'timestamptz', default: () => 'now()' })
  joinedAt: Date;

  @Column({ type: 'boolean', default: false })
  muted: boolean;

  /** A snooze: muted until then. Null with muted: until turned back on. */
  @Column({ name: 'muted_until', type: 'timestamptz', nullable: true })
  mutedUntil: Date | null;

  /** The newest message an e-mail already named (the worker's; never two e-mails for the same messages). */
  @Column({ name: 'emailed_seq', type: 'bigint', default: 0 })
  emailedSeq: string;

  /** Who brought this participant in; null when they started the chat, opened it or came with its target. */
  @Column({ name: 'added_by', type: 'uuid', nullable: true })
  addedBy: string | null;
}
