import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { isGlobalRole, Role } from '#shared/contracts/roles';
import { forbidden, notFound, unprocessable } from '../../common/errors';
import { DomainEvents } from '../../common/events/domain-events';
import { customCssProblems } from './custom-css.rule';
import { CurrentInstanceDto, InstanceDto, InstancePageDto } from './dto/instance-response.dto';
import { UpdateInstanceDto } from './dto/instance-request.dto';
import { InstanceEntity } from './instance.entity';
import { mapCurrentInstance, mapInstance } from './instance.mapper';
import { InstanceResolver } from './instance-resolver.service';
import { InstancePatch, InstancesRepository } from './instances.repository';

export const NOTHING_TO_UPDATE = 'VALIDATION.INSTANCE.NOTHING_TO_UPDATE';
export const OWNER_NOT_IN_INSTANCE = 'VALIDATION.USER_CODE.NOT_IN_INSTANCE';

@Injectable()
export class InstancesService {
  constructor(
    private readonly repo: InstancesRepository,
    private readonly resolver: InstanceResolver,
    private readonly events: DomainEvents,
  ) {}

  current(instance: InstanceEntity): CurrentInstanceDto {
    return mapCurrentInstance(instance);
  }

  /** The caller's own instance, or any instance for a global role; anything else is 404 (existence is not revealed). */
  async get(user: AuthUser, code: string): Promise<InstanceDto> {
    const instance = await this.repo.findByCode(code);
    if (!instance || (instance.id !== user.instanceId && !isGlobalRole(user.role))) throw notFound();
    return mapInstance(instance);
  }

  /** Global roles page through every instance; everyone else sees a one-item page with their own. */
  async list(user: AuthUser, page: number, pageSize: number): Promise<InstancePageDto> {
    if (isGlobalRole(user.role)) {
      const { items, total } = await this.repo.page(page, pageSize);
      return { items: items.map(mapInstance), page, pageSize, total };
    }
    const own = await this.repo.findById(user.instanceId);
    const items = own && page === 1 ? [mapInstance(own)] : [];
    return { items, page, pageSize, total: own ? 1 : 0 };
  }

  /** Instances the caller owns, plus their own instance when they administer it. */
  async owned(user: AuthUser): Promise<InstanceDto[]> {
    const own = user.role === Role.InstanceAdmin ? user.instanceId : undefined;
    return (await this.repo.findOwnedBy(user.id, own)).map(mapInstance);
  }

  /** A global admin makes a user of the instance its owner and instance admin (instance admins are never first-come). */
  async appointOwner(user: AuthUser, code: string, userCode: string): Promise<InstanceDto> {
    const instance = await this.repo.findByCode(code);
    if (!instance) throw notFound();
    if (!(await this.repo.appointOwner(instance.id, userCode, user.id))) throw unprocessable([OWNER_NOT_IN_INSTANCE]);
    return mapInstance(await this.repo.findById(instance.id).then((i) => i ?? instance));
  }

  async update(user: AuthUser, dto: UpdateInstanceDto): Promise<InstanceDto> {
    const target = await this.editableTarget(user, dto.code);
    const patch = toPatch(dto);
    if (Object.keys(patch).length === 0) throw unprocessable([NOTHING_TO_UPDATE]);
    // The CSS is checked against the logo it will be served with: a new logo must not leave a foreign URL behind.
    const css = patch.customCss ?? (patch.logoUrl !== undefined ? target.customCss : '');
    if (css) {
      const problems = customCssProblems(css, { logoUrl: patch.logoUrl !== undefined ? patch.logoUrl : target.logoUrl });
      if (problems.length) throw unprocessable(problems);
    }
    const updated = await this.repo.update(target.id, patch);
    this.resolver.invalidate();
    const instance = { ...mapCurrentInstance(updated), stylesVersion: updated.updatedAt.toISOString() };
    void this.events.emit('instance.updated', { instanceId: updated.id, instance });
    return mapInstance(updated);
  }

  /**
   * Global admins may change any instance (404 for an unknown code). Global users and instance admins
   * (the other roles the /admin screen admits) may change only their own instance; naming any other
   * code is 403, whether or not it exists. Instance users never reach here (role guard).
   */
  private async editableTarget(user: AuthUser, code: string | undefined): Promise<InstanceEntity> {
    const instance = code ? await this.repo.findByCode(code) : await this.repo.findById(user.instanceId);
    if (user.role === Role.GlobalAdmin) {
      if (!instance) throw notFound();
      return instance;
    }
    if (!instance || instance.id !== user.instanceId) throw forbidden();
    return instance;
  }
}

function toPatch(dto: UpdateInstanceDto): InstancePatch {
  const patch: InstancePatch = {};
  if (dto.name !== undefined) patch.name = dto.name.trim();
  if (dto.color !== undefined) patch.color = dto.color.toLowerCase();
  if (dto.accent !== undefined) patch.accent = dto.accent.toLowerCase();
  if (dto.logoUrl !== undefined) patch.logoUrl = dto.logoUrl ?? null;
  if (dto.customCss !== undefined) patch.customCss = dto.customCss;
  return patch;
}
