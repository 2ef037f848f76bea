import { Injectable } from '@nestjs/common';
import { AccessTokenClaims, AuthUser } from '#shared/contracts/auth';
import { TokenService } from '../../modules/auth/token.service';
import { UsersRepository } from '../../modules/users/users.repository';
import { ErrorKey, unauthorized } from '../errors';

/** Access token → the caller, re-read so a deleted user's token stops working at once. Used by HTTP and sockets. */
@Injectable()
export class Authenticator {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UsersRepository,
  ) {}

  /** The token's user code and login must name the same user: a signed token mixing two users is refused. */
  async authenticate(token: string): Promise<{ user: AuthUser; claims: AccessTokenClaims }> {
    const claims = this.tokens.verify(token);
    const user = await this.users.findByCode(claims.unique_name);
    if (!user || user.email !== claims.nameid.toLowerCase()) throw unauthorized(ErrorKey.Unauthorized);
    return { user: { id: user.id, code: user.code, email: user.email, role: user.role, instanceId: user.instanceId }, claims };
  }
}
