import { Inject, Injectable } from '@nestjs/common';
import { ErrorKey, unauthorized, unprocessable } from '../../common/errors';
import { RateLimitRule, RateLimitService } from '../../common/rate-limit/rate-limit.service';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { InstanceEntity } from '../instances/instance.entity';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { LoginDto, RegisterDto } from './dto/auth-request.dto';
import { LoginResponseDto } from './dto/auth-response.dto';
import { accountId, LoginThrottleService } from './login-throttle.service';
import { OidcAccountsService } from './oidc/oidc-accounts.service';
import { PasswordPolicy } from './password-policy';
import { PasswordService } from './password.service';
import { safeRedirectUrl } from './redirect-url';
import { IssuedSession } from './refresh-cookie';
import { SessionService } from './session.service';

/** Register and login: rate-limited, then a new session. */
@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly usersRepo: UsersRepository,
    private readonly passwords: PasswordService,
    private readonly sessions: SessionService,
    private readonly rateLimit: RateLimitService,
    private readonly throttle: LoginThrottleService,
    private readonly passwordPolicy: PasswordPolicy,
    private readonly oidcAccounts: OidcAccountsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Registers (see UsersService.register for who becomes admin) and logs the new user in at once. */
  async register(instance: InstanceEntity, dto: RegisterDto, ip: string | undefined): Promise<IssuedSession<LoginResponseDto>> {
    await this.rateLimit.consume(this.registerLimits(instance, dto.email, ip));
    const { password, ...profile } = dto;
    const weak = await this.passwordPolicy.problem(password, { email: dto.email, name: dto.name, surname: dto.surname, instanceName: instance.name });
    if (weak) throw unprocessable([weak]);
    const user = await this.users.register(instance, { ...profile, passwordHash: await this.passwords.hash(password) });
    await this.throttle.registered(instance.id, user.email, ip);
    return this.sessions.start(user, instance.code, false, '/');
  }

  /** A wrong e-mail and a wrong password look the same, in answer, in time and in what they count. */
  async login(instance: InstanceEntity, dto: LoginDto, ip: string | undefined): Promise<IssuedSession<LoginResponseDto>> {
    const attempt = await this.throttle.begin(instance.id, dto.email, ip);
    const user = await this.usersRepo.findByEmail(instance.id, dto.email.trim());
    if (!(await this.passwords.verify(user?.passwordHash, dto.password)) || !user) {
      throw unauthorized(ErrorKey.InvalidCredentials);
    }
    if (dto.linkToken) await this.oidcAccounts.linkAfterPassword(user, dto.linkToken);
    await this.throttle.succeeded(attempt);
    return this.sessions.start(user, instance.code, dto.rememberMe ?? false, safeRedirectUrl(dto.returnUrl));
  }

  /**
   * Every registration attempt counts, per client IP (any instance) and per e-mail within the instance:
   * creating accounts in bulk is what an attacker needs, an office registers rarely.
   */
  private registerLimits(instance: InstanceEntity, email: string, ip: string | undefined): RateLimitRule[] {
    const window = this.config.AUTH_RATE_LIMIT_WINDOW;
    return [
      { name: 'register:ip', id: ip ?? 'unknown', limit: this.config.AUTH_RATE_LIMIT_IP, windowSeconds: window },
      { name: 'register:email', id: accountId(instance.id, email), limit: this.config.AUTH_RATE_LIMIT_EMAIL, windowSeconds: window },
    ];
  }
}
