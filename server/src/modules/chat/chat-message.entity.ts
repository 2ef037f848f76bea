import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { ChatMessageType } from '#shared/contracts/chat';
import type { OfferNoteData } from '#shared/contracts/events';

@Entity({ name: 'chat_message' })
export class ChatMessageEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ name: 'group_id', type: 'bigint' })
  groupId: string;

  /** Gap-free position within the group, from 1. */
  @Column({ type: 'bigint' })
  seq: string;

  @Column({ name: 'author_id', type: 'uuid', nullable: true })
  authorId: string | null;

  @Column({ type: 'smallint', default: ChatMessageType.Text })
  type: ChatMessageType;

  @Column({ type: 'varchar', length: 10000, default: '' })
  text: string;

  @Column({ type: 'varchar', length: 3, nullable: true })
  lang: string | null;

  @Column({ type: 'text', nullable: true })
  translation: string | null;

  @Column({ name: 'client_key', type: 'varchar', length: 65, nullable: true })
  clientKey: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  @Column({ name: 'deleted_by', type: 'uuid', nullable: true })
  deletedBy: string | null;

  /** The quoted message (same group). */
  @Column({ name: 'reply_to_id', type: 'bigint', nullable: true })
  replyToId: string | null;

  @Column({ name: 'edited_at', type: 'timestamptz', nullable: true })
  editedAt: Date | null;

  /** One of the marketplace's offer notes: set only when the marketplace posts one, never by a send or an edit. */
  @Column({ name: 'offer_note', type: 'boolean', default: false })
  offerNote: boolean;

  @Column({ name: 'offer_note_data', type: 'jsonb', nullable: true })
  offerNoteData: OfferNoteData | null;

  /** Sent in an offer's chat before it was Agreed with contact details or a request to pay off Parley (set by the server). */
  @Column({ name: 'off_platform', type: 'boolean', default: false })
  offPlatform: boolean;

  /** Position of the latest edit in the edits of all groups (sequence chat_message_edit_seq), for `sync`. */
  @Column({ name: 'edit_seq', type: 'bigint', nullable: true })
  editSeq: string | null;
}
