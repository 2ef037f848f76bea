import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { newCode } from '../../common/codes';
import { Role } from '#shared/contracts/roles';
import { InstanceEntity } from './instance.entity';

export type InstancePatch = Partial<Pick<InstanceEntity, 'name' | 'color' | 'accent' | 'logoUrl' | 'customCss'>>;

/** The only code that touches the instance table. */
@Injectable()
export class InstancesRepository {
  constructor(
    @InjectRepository(InstanceEntity) private readonly instances: Repository<InstanceEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  findByHost(host: string): Promise<InstanceEntity | null> {
    return this.instances.createQueryBuilder('i').where(':host = ANY(i.hosts)', { host }).getOne();
  }

  findById(id: string): Promise<InstanceEntity | null> {
    return this.instances.findOneBy({ id });
  }

  findByCode(code: string): Promise<InstanceEntity | null> {
    return this.instances.findOneBy({ code });
  }

  /** One page of every instance, by name then code so pages are stable. */
  async page(page: number, pageSize: number): Promise<{ items: InstanceEntity[]; total: number }> {
    const [items, total] = await this.instances.findAndCount({
      order: { name: 'ASC', code: 'ASC' },
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
    return { items, total };
  }

  /** Instances owned by the user, plus the extra one given (by id), by name. */
  findOwnedBy(userId: string, alsoId?: string): Promise<InstanceEntity[]> {
    const query = this.instances.createQueryBuilder('i').where('i.owner_id = :userId', { userId });
    if (alsoId) query.orWhere('i.id = :alsoId', { alsoId });
    return query.orderBy('i.name', 'ASC').addOrderBy('i.code', 'ASC').getMany();
  }

  async update(id: string, patch: InstancePatch): Promise<InstanceEntity> {
    await this.instances.update({ id }, patch);
    return this.instances.findOneByOrFail({ id });
  }

  /**
   * Appoints a user of the instance as its owner, in one transaction: the instance's owner_id, the user's
   * role raised to instance admin (a global role stays), and an audit entry naming the actor. Answers
   * false when no user with that code belongs to the instance.
   */
  async appointOwner(instanceId: string, userCode: string, actorId: string): Promise<boolean> {
    return this.instances.manager.transaction(async (tx) => {
      const [user] = (await tx.query(`SELECT id, role FROM "user" WHERE code = $1 AND instance_id = $2 FOR UPDATE`, [userCode, instanceId])) as {
        id: string;
        role: number;
      }[];
      if (!user) return false;
      await tx.query(`UPDATE "instance" SET owner_id = $1, updated_at = now() WHERE id = $2`, [user.id, instanceId]);
      await tx.query(`UPDATE "user" SET role = $1, updated_at = now() WHERE id = $2 AND role = $3`, [Role.InstanceAdmin, user.id, Role.InstanceUser]);
      await tx.query(`INSERT INTO audit_log (instance_id, actor_id, action, details) VALUES ($1, $2, 'instance.owner', $3)`, [
        instanceId,
        actorId,
        JSON.stringify({ userCode, previousRole: user.role }),
      ]);
      return true;
    });
  }

  /** The default instance, created on first use; concurrent first starts agree on one row. */
  async findOrCreateDefault(): Promise<InstanceEntity> {
    const existing = await this.instances.findOneBy({ isDefault: true });
    if (existing) return existing;
    await this.instances.query(
      `INSERT INTO "instance" ("code", "name", "is_default") VALUES ($1, $2, true)
       ON CONFLICT ("is_default") WHERE "is_default" DO NOTHING`,
      [newCode(), this.config.DEFAULT_INSTANCE_NAME],
    );
    return this.instances.findOneByOrFail({ isDefault: true });
  }
}
