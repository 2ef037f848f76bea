import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { InstanceEntity } from './instance.entity';

/** The instance chosen by the request's host (InstanceMiddleware). */
export const CurrentInstance = createParamDecorator((_: unknown, ctx: ExecutionContext): InstanceEntity => {
  return ctx.switchToHttp().getRequest<Request>().instance!;
});
