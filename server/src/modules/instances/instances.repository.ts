import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { newCode } from '../../common/codes';
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
