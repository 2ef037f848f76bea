import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { LinkedIdentityEntity } from './linked-identity.entity';

export type NewLinkedIdentity = Pick<LinkedIdentityEntity, 'userId' | 'instanceId' | 'provider' | 'subject' | 'email'>;

/** The only code that touches linked_identity. */
@Injectable()
export class LinkedIdentitiesRepository {
  constructor(@InjectRepository(LinkedIdentityEntity) private readonly identities: Repository<LinkedIdentityEntity>) {}

  findBySubject(instanceId: string, provider: string, subject: string): Promise<LinkedIdentityEntity | null> {
    return this.identities.findOneBy({ instanceId, provider, subject });
  }

  listForUser(userId: string): Promise<LinkedIdentityEntity[]> {
    return this.identities.find({ where: { userId }, order: { createdAt: 'ASC' } });
  }

  /** Links; false when that subject or that provider is already linked (to this or another user). */
  async link(row: NewLinkedIdentity): Promise<boolean> {
    const rows: unknown[] = await this.identities.query(
      `INSERT INTO linked_identity (user_id, instance_id, provider, subject, email) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING RETURNING id`,
      [row.userId, row.instanceId, row.provider, row.subject, row.email],
    );
    return rows.length > 0;
  }

  /** Answers whether a link was removed. */
  async unlink(userId: string, provider: string): Promise<boolean> {
    const result = await this.identities.delete({ userId, provider });
    return (result.affected ?? 0) > 0;
  }
}
