import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { JOB_ROLES } from '#shared/contracts/offers';
import { unprocessable } from '../../common/errors';
import { JobRoleDto, SetRoleUsersDto } from './dto/job.dto';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

/** The fixed roles of every job (names are translation keys) and the users the customer put on them. */
@Injectable()
export class JobRolesService {
  constructor(
    private readonly jobs: JobsService,
    private readonly repo: JobsRepository,
  ) {}

  async list(user: AuthUser, jobCode: string): Promise<JobRoleDto[]> {
    const job = await this.jobs.visibleJob(user, jobCode);
    const rows = await this.repo.roleUsers(job.id);
    return JOB_ROLES.map((r) => ({
      id: r.id,
      name: r.name,
      users: rows.filter((u) => u.role === r.id).map((u) => ({ code: u.code, name: u.name, surname: u.surname })),
    }));
  }

  /** Only the job's customer; the users must belong to the job's instance. */
  async set(user: AuthUser, jobCode: string, roleId: number, dto: SetRoleUsersDto): Promise<JobRoleDto> {
    const job = await this.jobs.ownJob(user, jobCode);
    const ids = await this.repo.userIds(job.instance_id, dto.users);
    if (!ids) throw unprocessable(['JOB.UNKNOWN_USERS']);
    await this.repo.setRoleUsers(job.id, roleId, ids);
    return (await this.list(user, jobCode)).find((r) => r.id === roleId)!;
  }
}
