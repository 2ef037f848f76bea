import { Inject, Injectable } from '@nestjs/common';
import { newCode } from '../../common/codes';
import { conflict, ErrorKey, notFound } from '../../common/errors';
import { gravatarUrl } from '../../common/gravatar';
import { RateLimitRule, RateLimitService } from '../../common/rate-limit/rate-limit.service';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { AuthUser } from '#shared/contracts/auth';
import { isGlobalRole } from '#shared/contracts/roles';
import { UserType } from '#shared/contracts/users';
import { PresenceService } from '#shared/presence/presence.service';
import { InstanceEntity } from '../instances/instance.entity';
import { PresenceAudience } from '../presence/presence-audience.service';
import { UpdateMeDto } from './dto/user-request.dto';
import { MeResponseDto, UserAvatarDto, UserResponseDto, UserStatusDto } from './dto/user-response.dto';
import { canonicalTimezone } from './timezone-info';
import { mapMe, mapUser } from './user.mapper';
import { visibleText } from '../../common/visible-text';
import { UserEntity } from './user.entity';
import { ProfileChanges, UsersRepository } from './users.repository';

const SEARCH_LIMIT = 20;

/**
 * Searches per user: plenty for typing into the search box (200 ms debounce), far too few to list an
 * instance's people by brute force. Per user, not per IP, so a busy office is not one budget.
 */
const searchLimits = (userCode: string): RateLimitRule[] => [
  { name: 'user-search:minute', id: userCode, limit: 30, windowSeconds: 60 },
  { name: 'user-search:hour', id: userCode, limit: 300, windowSeconds: 3600 },
];

export interface NewAccount {
  email: string;
  passwordHash: string;
  name: string;
  surname?: string;
  type?: number;
  country?: string | null;
  lang?: string;
  timezone?: string;
}

/**
 * Normalised profile values: names cleaned of invisible characters (the DTOs already did; this holds for
 * every other writer too), country upper-case, time zone in its canonical spelling.
 */
function normalise<T extends { name?: string; surname?: string; country?: string | null; timezone?: string }>(fields: T): T {
  const out = { ...fields };
  if (typeof out.name === 'string') out.name = visibleText(out.name);
  if (typeof out.surname === 'string') out.surname = visibleText(out.surname);
  if (typeof out.country === 'string') out.country = out.country.toUpperCase();
  if (out.timezone !== undefined) out.timezone = canonicalTimezone(out.timezone) ?? 'UTC';
  return out;
}

/** Profiles, lookups and search; everything is scoped to what the viewer may see. */
@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly presence: PresenceService,
    private readonly audience: PresenceAudience,
    private readonly rateLimit: RateLimitService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Global roles see every instance (null); everyone else only their own. */
  private scope(viewer: AuthUser): string | null {
    return isGlobalRole(viewer.role) ? null : viewer.instanceId;
  }

  /**
   * Registers a user in the instance chosen by the request's host, as an instance user (role 0). Admins
   * are never first come, first served: a tenant's admin is appointed by a global admin (PUT
   * /api/Instance/{code}/owner). Only the default instance, with FIRST_USER_ADMIN (on by default outside
   * production: a fresh `npm start`), makes its very first user its instance admin. E-mails are stored
   * lower-cased and are unique per instance (409 SHARED.USER.EMAIL_TAKEN).
   */
  async register(instance: InstanceEntity, account: NewAccount): Promise<UserEntity> {
    const fields = normalise(account);
    const user = await this.users.createAccount(
      {
        code: newCode(),
        instanceId: instance.id,
        email: fields.email.trim().toLowerCase(),
        passwordHash: fields.passwordHash,
        name: fields.name,
        surname: fields.surname ?? '',
        type: fields.type ?? UserType.Personal,
        country: fields.country ?? null,
        lang: fields.lang ?? 'eng',
        timezone: fields.timezone ?? 'UTC',
      },
      instance.isDefault && this.config.FIRST_USER_ADMIN,
    );
    if (!user) throw conflict(ErrorKey.EmailTaken);
    return user;
  }

  /** The caller's full profile; the user may have been deleted since the token was checked. */
  async me(viewer: Pick<AuthUser, 'id'>): Promise<MeResponseDto> {
    const user = await this.users.findWithInstance(viewer.id);
    if (!user?.instance) throw notFound();
    const [status] = await this.presence.statuses([user.code]);
    return mapMe(user, user.instance.code, status?.away ?? null);
  }

  async updateMe(viewer: AuthUser, dto: UpdateMeDto): Promise<MeResponseDto> {
    // Only the fields sent: a DTO class may carry its declared-but-absent fields as undefined.
    const sent = Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined)) as UpdateMeDto;
    const changes: ProfileChanges = normalise(sent);
    await this.users.update(viewer.id, changes);
    return this.me(viewer);
  }

  /** 404 for a user of another instance too, so existence is not revealed. */
  async get(viewer: AuthUser, code: string): Promise<UserResponseDto> {
    const user = await this.users.findVisibleByCode(this.scope(viewer), code);
    if (!user) throw notFound();
    return (await this.withAway(viewer, [user]))[0];
  }

  /** The users among the codes that the viewer may see, in the order asked; the rest are simply absent. */
  async list(viewer: AuthUser, codes: string[]): Promise<UserResponseDto[]> {
    const wanted = [...new Set(codes)];
    const found = new Map((await this.users.findVisibleByCodes(this.scope(viewer), wanted)).map((u) => [u.code, u]));
    return this.withAway(
      viewer,
      wanted.flatMap((c) => found.get(c) ?? []),
    );
  }

  async search(viewer: AuthUser, query: string): Promise<UserResponseDto[]> {
    await this.rateLimit.consume(searchLimits(viewer.code));
    return this.withAway(viewer, await this.users.search(this.scope(viewer), query, SEARCH_LIMIT));
  }

  statuses(viewer: AuthUser, codes: string[]): Promise<UserStatusDto[]> {
    return this.audience.statusesFor(viewer, codes);
  }

  gravatar(viewer: AuthUser): UserAvatarDto {
    return { code: 'gravatar', url: gravatarUrl(viewer.email) };
  }

  /** Maps users with their away minutes (read from Redis in one round trip), for those the viewer deals with; null for the rest. */
  private async withAway(viewer: AuthUser, users: UserEntity[]): Promise<UserResponseDto[]> {
    const statuses = await this.audience.statusesFor(
      viewer,
      users.map((u) => u.code),
    );
    const away = new Map(statuses.map((s) => [s.userCode, s.away]));
    const now = new Date();
    return users.map((u) => mapUser(u, away.get(u.code) ?? null, now));
  }
}
