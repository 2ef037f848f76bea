import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'instance' })
export class InstanceEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('UQ_instance_code', { unique: true })
  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** Host names (without port) that select this instance. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  hosts: string[];

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault: boolean;

  /** Hex colour without the leading '#'. */
  @Column({ type: 'varchar', length: 6, default: '228be6' })
  color: string;

  @Column({ type: 'varchar', length: 6, default: '7950f2' })
  accent: string;

  @Column({ name: 'logo_url', type: 'varchar', length: 2048, nullable: true })
  logoUrl: string | null;

  @Column({ name: 'custom_css', type: 'text', default: '' })
  customCss: string;

  @Column({ name: 'owner_id', type: 'uuid', nullable: true })
  ownerId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
