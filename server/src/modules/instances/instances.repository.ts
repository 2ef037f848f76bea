import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { newCode } from '../../common/codes';
import { InstanceEntity } from './instance.entity';

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
