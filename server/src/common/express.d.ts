import type { AuthUser } from '#shared/contracts/auth';

declare module 'express-serve-static-core' {
  interface Request {
    user?: AuthUser;
    id?: string | number | object;
  }
}
