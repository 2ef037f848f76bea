import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { InstanceResolver } from './instance-resolver.service';

/** Sets req.instance from the Host header for every request. */
@Injectable()
export class InstanceMiddleware implements NestMiddleware {
  constructor(private readonly resolver: InstanceResolver) {}

  use(req: Request, _res: Response, next: NextFunction): void {
    this.resolver.resolve(req.headers.host).then(
      (instance) => {
        req.instance = instance;
        next();
      },
      (err: unknown) => next(err),
    );
  }
}
