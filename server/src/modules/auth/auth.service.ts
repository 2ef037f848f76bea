import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { ErrorKey, unauthorized } from '../../common/errors';
import { RateLimitRule, RateLimitService } from '../../common/rate-limit/rate-limit.service';
import { APP_CONFIG } from '../../config/config.module';
import { AppConfig } from '../../config/config.schema';
import { InstanceEntity } from '../instances/instance.entity';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import { LoginDto, RegisterDto } from './dto/auth-request.dto';
import { LoginResponseDto } from './dto/auth-response.dto';
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
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Registers (see UsersService.register for who becomes admin) and logs the new user in at once. */
  async register(instance: InstanceEntity, dto: RegisterDto, ip: string | undefined): Promise<IssuedSession<LoginResponseDto>> {
    await this.rateLimit.consume(this.limits('register', instance, dto.email, ip));
    const { password, ...profile } = dto;
    const user = await this.users.register(instance, { ...profile, passwordHash: await this.passwords.hash(password) });
    return this.sessions.start(user, instance.code, false, '/');
  }

  /** A wrong e-mail and a wrong password look the same, in answer and in time. */
  async login(instance: InstanceEntity, dto: LoginDto, ip: string | undefined): Promise<IssuedSession<LoginResponseDto>> {
    await this.rateLimit.consume(this.limits('login', instance, dto.email, ip));
    const user = await this.usersRepo.findByEmail(instance.id, dto.email.trim());
    if (!(await this.passwords.verify(user?.passwordHash, dto.password)) || !user) {
      throw unauthorized(ErrorKey.InvalidCredentials);
    }
    return this.sessions.start(user, instance.code, dto.rememberMe ?? false, safeRedirectUrl(dto.returnUrl));
  }

  /**
   * Every attempt counts, per client IP (any instance) and per e-mail within the instance. The e-mail is
   * hashed so Redis holds no addresses.
   */
  private limits(action: string, instance: InstanceEntity, email: string, ip: string | undefined): RateLimitRule[] {
    const window = this.config.AUTH_RATE_LIMIT_WINDOW;
    const emailId = createHash('sha256').update(`${instance.id}:${email.trim().toLowerCase()}`).digest('hex').slice(0, 32);
    return [
      { name: `${action}:ip`, id: ip ?? 'unknown', limit: this.config.AUTH_RATE_LIMIT_IP, windowSeconds: window },
      { name: `${action}:email`, id: emailId, limit: this.config.AUTH_RATE_LIMIT_EMAIL, windowSeconds: window },
    ];
  }
}
