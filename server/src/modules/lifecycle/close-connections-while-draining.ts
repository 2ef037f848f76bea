import type { NextFunction, Request, Response } from 'express';
import { DrainState } from './drain-state';

/**
 * While the process drains, every answer closes its connection. A kept-alive connection that is never idle (a
 * load balancer's health check asking again at once) would otherwise hold the HTTP server's close open forever;
 * and the client's next request goes through a new connection, to a node that is still ready.
 */
export function closeConnectionsWhileDraining(drain: DrainState) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    if (drain.draining) res.setHeader('Connection', 'close');
    next();
  };
}
