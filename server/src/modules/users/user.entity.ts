import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { UserType } from '#shared/contracts/users';
import { InstanceEntity } from '../instances/instance.entity';

@Entity({ name: 'user' })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('UQ_user_code', { unique: true })
  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ name: 'instance_id', type: 'uuid' })
  instanceId: string;

  @ManyToOne(() => InstanceEntity, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'instance_id', foreignKeyConstraintName: 'FK_user_instance' })
  instance?: InstanceEntity;

  /** Stored lower-cased; unique within an instance. */
  @Column({ type: 'varchar', length: 254 })
  email: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  surname: string;

  /** 1 personal, 2 company. */
  @Column({ type: 'smallint', default: UserType.Personal })
  type: number;

  /** Numeric role: 0 instance user, 10 global user, 50 instance admin, 100 global admin. */
  @Column({ type: 'smallint', default: 0 })
  role: number;

  @Column({ type: 'varchar', length: 2, nullable: true })
  country: string | null;

  @Column({ type: 'varchar', length: 3, default: 'eng' })
  lang: string;

  @Column({ type: 'varchar', length: 64, default: 'UTC' })
  timezone: string;

  @Column({ name: 'avatar_url', type: 'varchar', length: 2048, nullable: true })
  avatarUrl: string | null;

  /** The user chose to show their Gravatar (which publishes a hash of the e-mail); off by default. */
  @Column({ type: 'boolean', default: false })
  gravatar: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
