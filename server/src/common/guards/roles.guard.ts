import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Role, roleRuleAllows, RoleRule } from '#shared/contracts/roles';
import { ROLE_RULES } from '../decorators/roles.decorator';
import { forbidden } from '../errors';

/** Applies @RequireAnyRole / @RequireAllRoles / @RequireNoRole; runs after AuthGuard. */
@Injectable()
export class RolesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() !== 'http') return true;
    const rule = this.reflector.getAllAndOverride<RoleRule | undefined>(ROLE_RULES, [ctx.getHandler(), ctx.getClass()]);
    if (!rule) return true;
    const role = ctx.switchToHttp().getRequest<Request>().user?.role ?? Role.Anonymous;
    if (!roleRuleAllows(rule, role)) throw forbidden();
    return true;
  }
}
