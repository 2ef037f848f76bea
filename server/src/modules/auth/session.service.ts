import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ErrorKey, unauthorized } from '../../common/errors';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { PresenceService } from '#shared/presence/presence.service';
import { mapMe } from '../users/user.mapper';
import { UserEntity } from '../users/user.entity';
import { UsersRepository } from '../users/users.repository';
import { LoginResponseDto } from './dto/auth-response.dto';
import { IssuedSession } from './refresh-cookie';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { TokenService } from './token.service';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newRefreshToken = () => randomBytes(32).toString('base64url');

/**
 * Sessions: an access JWT plus a refresh token that rotates on every use. Tokens of one login form a
 * family; presenting a token that was already used means it was copied, so the whole family is revoked.
 */
@Injectable()
export class SessionService {
  private readonly logger = new Logger(SessionService.name);

  constructor(
    private readonly refreshTokens: RefreshTokensRepository,
    private readonly users: UsersRepository,
    private readonly tokens: TokenService,
    private readonly presence: PresenceService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A new family for a user who just proved who they are. */
  async start(user: UserEntity, instanceCode: string, remember: boolean, redirectUrl: string): Promise<IssuedSession<LoginResponseDto>> {
    const refreshToken = newRefreshToken();
    const ttl = remember ? this.config.REFRESH_TOKEN_TTL_REMEMBER : this.config.REFRESH_TOKEN_TTL;
    await this.refreshTokens.pruneExpired(user.id);
    const familyId = randomUUID();
    await this.refreshTokens.insert({
      userId: user.id,
      familyId,
      tokenHash: hashToken(refreshToken),
      remember,
      expiresAt: new Date(Date.now() + ttl * 1000),
    });
    return { body: await this.answer(user, instanceCode, redirectUrl), refreshToken, remember, familyId };
  }

  /** Swaps a live refresh token for a new one of the same family; any failure is 401 SESSION_EXPIRED. */
  async refresh(presented: string | undefined): Promise<IssuedSession<LoginResponseDto>> {
    if (!presented) throw unauthorized(ErrorKey.SessionExpired);
    const oldHash = hashToken(presented);
    const refreshToken = newRefreshToken();
    const rotated = await this.refreshTokens.rotate(oldHash, hashToken(refreshToken), {
      session: this.config.REFRESH_TOKEN_TTL,
      remember: this.config.REFRESH_TOKEN_TTL_REMEMBER,
    });
    if (!rotated) {
      if (await this.refreshTokens.revokeFamilyIfUsed(oldHash)) this.logger.warn('refresh token reused: family revoked');
      throw unauthorized(ErrorKey.SessionExpired);
    }
    const user = await this.users.findWithInstance(rotated.userId);
    if (!user?.instance) throw unauthorized(ErrorKey.SessionExpired);
    return { body: await this.answer(user, user.instance.code, '/'), refreshToken, remember: rotated.remember };
  }

  /** Logout: the family of the presented token stops working; answers the family it revoked, if any. */
  async end(presented: string | undefined): Promise<string | undefined> {
    return presented ? this.refreshTokens.revokeFamily(hashToken(presented)) : undefined;
  }

  private async answer(user: UserEntity, instanceCode: string, redirectUrl: string): Promise<LoginResponseDto> {
    await this.presence.recordActivity(user.code, true).catch(() => undefined);
    const { token } = this.tokens.sign(user);
    return { token, user: mapMe(user, instanceCode, 0), redirectUrl };
  }
}
