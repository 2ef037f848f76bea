import type { InstanceEntity } from './instance.entity';

declare module 'express-serve-static-core' {
  interface Request {
    /** set by InstanceMiddleware from the request's host */
    instance?: InstanceEntity;
  }
}
