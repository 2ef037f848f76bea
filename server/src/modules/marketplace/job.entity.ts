import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** A job a customer posted in an instance; its texts are in job_version rows. */
@Entity({ name: 'job' })
export class JobEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 32 })
  code: string;

  @Column({ name: 'instance_id', type: 'uuid' })
  instanceId: string;

  @Column({ name: 'customer_id', type: 'uuid' })
  customerId: string;

  /** UTC */
  @Column({ type: 'timestamptz', nullable: true })
  deadline: Date | null;

  /** false once the customer chose an offer with allowForMoreOffers false */
  @Column({ name: 'accepting_offers', type: 'boolean', default: true })
  acceptingOffers: boolean;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}

/** One language version of a job's texts; exactly one per job is the default. */
@Entity({ name: 'job_version' })
export class JobVersionEntity {
  @PrimaryColumn({ name: 'job_id', type: 'bigint' })
  jobId: string;

  @PrimaryColumn({ type: 'varchar', length: 3 })
  lang: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  @Column({ type: 'varchar', length: 10000 })
  description: string;

  @Column({ name: 'is_default', type: 'boolean', default: false })
  isDefault: boolean;
}

/** A user put on one of a job's roles. */
@Entity({ name: 'job_role_user' })
export class JobRoleUserEntity {
  @PrimaryColumn({ name: 'job_id', type: 'bigint' })
  jobId: string;

  @PrimaryColumn({ type: 'smallint' })
  role: number;

  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId: string;

  @Column({ type: 'smallint', default: 0 })
  position: number;
}
