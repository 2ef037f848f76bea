import { Injectable } from '@nestjs/common';
import { AccessTokenClaims, AuthUser } from '#shared/contracts/auth';
import { BatchLoader } from '../../common/batch-loader';
import { TokenService } from './token.service';
import { UsersRepository } from '../users/users.repository';
import { ErrorKey, unauthorized } from '../../common/errors';

/**
 * Access token → the caller, re-read so a deleted user's token stops working at once. Used by HTTP and sockets.
 * Lookups arriving together (a wave of socket handshakes after a deploy) share one query instead of one each.
 */
@Injectable()
export class Authenticator {
  private readonly byCode: BatchLoader<string, AuthUser>;

  constructor(
    private readonly tokens: TokenService,
    users: UsersRepository,
  ) {
    this.byCode = new BatchLoader(async (codes) => new Map((await users.findAuthUsers(codes)).map((u) => [u.code, u])));
  }

  /** The token's user code and login must name the same user: a signed token mixing two users is refused. */
  async authenticate(token: string): Promise<{ user: AuthUser; claims: AccessTokenClaims }> {
    const claims = this.tokens.verify(token);
    const user = await this.byCode.get(claims.unique_name);
    if (!user || user.email !== claims.nameid.toLowerCase()) throw unauthorized(ErrorKey.Unauthorized);
    return { user, claims };
  }
}
