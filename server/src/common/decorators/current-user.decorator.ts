import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { AuthUser } from '#shared/contracts/auth';
import { InstanceEntity } from '../../modules/instances/instance.entity';

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser | undefined => {
  return ctx.switchToHttp().getRequest<Request>().user;
});

/** The instance chosen by the request's host. */
export const CurrentInstance = createParamDecorator((_: unknown, ctx: ExecutionContext): InstanceEntity => {
  return ctx.switchToHttp().getRequest<Request>().instance!;
});
