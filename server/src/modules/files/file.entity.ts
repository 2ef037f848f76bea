import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export enum FileContext {
  ChatGroup = 1,
  ChatMessage = 2,
}

@Entity({ name: 'file' })
export class FileEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  code: string;

  /** A second unguessable code that every file URL must carry. */
  @Column({ name: 'secure_code', type: 'varchar', length: 64 })
  secureCode: string;

  @Column({ name: 'instance_id', type: 'uuid' })
  instanceId: string;

  @Column({ name: 'owner_id', type: 'uuid', nullable: true })
  ownerId: string | null;

  @Column({ type: 'smallint' })
  context: FileContext;

  /** The group the file was shared in; its participants may read it. */
  @Column({ name: 'group_id', type: 'bigint', nullable: true })
  groupId: string | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'bigint' })
  size: string;

  /** Sniffed from the bytes, never taken from the name or the request. */
  @Column({ type: 'varchar', length: 100 })
  mime: string;

  /** 'image' for png/jpg/gif, else 'unknown' (the spec's preview kinds). */
  @Column({ type: 'varchar', length: 16 })
  kind: string;

  @Column({ name: 'storage_key', type: 'varchar', length: 255 })
  storageKey: string;

  @Column({ name: 'has_thumbnail', type: 'boolean', default: false })
  hasThumbnail: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
