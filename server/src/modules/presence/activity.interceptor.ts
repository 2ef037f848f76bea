import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { PresenceService } from './presence.service';

/** Every authenticated HTTP request counts as activity (the service throttles the Redis writes). */
@Injectable()
export class ActivityInterceptor implements NestInterceptor {
  constructor(private readonly presence: PresenceService) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() === 'http') {
      const code = ctx.switchToHttp().getRequest<Request>().user?.code;
      if (code) void this.presence.recordActivity(code).catch(() => undefined);
    }
    return next.handle();
  }
}
