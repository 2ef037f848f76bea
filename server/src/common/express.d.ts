import type { AuthUser } from '#shared/contracts/auth';
import type { InstanceEntity } from '../modules/instances/instance.entity';

declare module 'express-serve-static-core' {
  interface Request {
    user?: AuthUser;
    instance?: InstanceEntity;
    id?: string | number | object;
  }
}
