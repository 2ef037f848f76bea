import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { NextFunction, Request, Response } from 'express';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { ErrorEnvelope, ErrorKey } from '../../common/errors';
import { Role } from '#shared/contracts/roles';
import { UsersRepository } from '../users/users.repository';

export const QUEUE_BOARD_PATH = '/api/admin/queues';
export const QUEUE_BOARD_COOKIE = 'parley_qb';

/**
 * The admin queue dashboard (Bull Board). A browser cannot send the bearer token on a page load, so a global
 * admin first calls POST /api/admin/queues/session (with the bearer token), which sets a short-lived, httpOnly,
 * SameSite=Strict cookie scoped to this path: `<exp>.<userCode>.<hmac>`. Each request re-checks the signature,
 * the expiry and that the user is still a global admin.
 */
@Injectable()
export class QueueBoard {
  private readonly key: Buffer;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
  ) {
    this.key = createHmac('sha256', config.JWT_SECRET).update('parley:queue-board').digest();
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }

  issue(userCode: string): { value: string; expiresAt: Date } {
    const exp = Math.floor(Date.now() / 1000) + this.config.QUEUE_BOARD_TTL;
    const body = `${exp}.${userCode}`;
    return { value: `${body}.${this.sign(body)}`, expiresAt: new Date(exp * 1000) };
  }

  /** The user code of a valid, unexpired cookie value. */
  verify(value: unknown): string | null {
    if (typeof value !== 'string') return null;
    const parts = value.split('.');
    if (parts.length !== 3) return null;
    const [exp, code, sig] = parts;
    const expected = Buffer.from(this.sign(`${exp}.${code}`));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    if (!/^\d+$/.test(exp) || Number(exp) * 1000 < Date.now()) return null;
    return code;
  }

  /** Express middleware in front of Bull Board. */
  guard() {
    return (req: Request, res: Response, next: NextFunction): void => {
      const deny = (code: 401 | 403) => {
        const envelope: ErrorEnvelope = { code, message: code === 401 ? ErrorKey.Unauthorized : ErrorKey.Forbidden };
        res.status(code).json(envelope);
      };
      const code = this.verify((req.cookies as Record<string, unknown> | undefined)?.[QUEUE_BOARD_COOKIE]);
      if (!code) return deny(401);
      this.users
        .findByCode(code)
        .then((user) => (user?.role === Role.GlobalAdmin ? next() : deny(403)))
        .catch(next);
    };
  }

  /** Bull Board's router for these queues, under QUEUE_BOARD_PATH. */
  router(queues: Queue[]) {
    const adapter = new ExpressAdapter();
    adapter.setBasePath(QUEUE_BOARD_PATH);
    createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter: adapter });
    return adapter.getRouter() as (req: Request, res: Response, next: NextFunction) => void;
  }
}
