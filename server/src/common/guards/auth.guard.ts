import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { IS_PUBLIC } from '../decorators/public.decorator';
import { ErrorKey, unauthorized } from '../errors';
import { TokenService } from '../../modules/auth/token.service';
import { UsersRepository } from '../../modules/users/users.repository';

export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && value ? value : undefined;
}

/**
 * Every route needs a valid access token unless it is @Public(). The user is re-read so a deleted
 * user's token stops working at once; on public routes a valid token still identifies the caller.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tokens: TokenService,
    private readonly users: UsersRepository,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [ctx.getHandler(), ctx.getClass()]);
    const token = bearerToken(req);
    if (!token) {
      if (isPublic) return true;
      throw unauthorized();
    }
    let claims;
    try {
      claims = this.tokens.verify(token);
    } catch (err) {
      if (isPublic) return true;
      throw err;
    }
    const user = await this.users.findByCode(claims.unique_name);
    if (!user) {
      if (isPublic) return true;
      throw unauthorized(ErrorKey.Unauthorized);
    }
    req.user = { id: user.id, code: user.code, email: user.email, role: user.role, instanceId: user.instanceId };
    return true;
  }
}
