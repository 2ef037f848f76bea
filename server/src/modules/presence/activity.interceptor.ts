import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { PresenceService } from '#shared/presence/presence.service';

/** Every authenticated HTTP request counts as activity (the service throttles the Redis writes). */
@Injectable()
export class ActivityInterceptor implements NestInterceptor {
  private readonly logger = new Logger(ActivityInterceptor.name);

  constructor(private readonly presence: PresenceService) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() === 'http') {
      const code = ctx.switchToHttp().getRequest<Request>().user?.code;
      if (code) this.presence.recordActivity(code).catch((err: unknown) => this.logger.warn(`recording activity: ${(err as Error).message}`));
    }
    return next.handle();
  }
}
