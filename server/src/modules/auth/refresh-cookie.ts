import { Inject, Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';

export const REFRESH_COOKIE = 'parley_rt';
/** Only the refresh and logout calls (under /api/user) ever carry the cookie. */
export const REFRESH_COOKIE_PATH = '/api/user';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface IssuedSession<T> {
  body: T;
  refreshToken: string;
  remember: boolean;
  /** The refresh-token family a new login started. */
  familyId?: string;
}

/** The refresh token's httpOnly cookie: set on login, register and refresh; cleared on logout and failures. */
@Injectable()
export class RefreshCookie {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  private options(): CookieOptions {
    return { httpOnly: true, sameSite: 'strict', path: REFRESH_COOKIE_PATH, secure: this.secure() };
  }

  /** Whether the app's cookies carry Secure (production). */
  secure(): boolean {
    return this.config.NODE_ENV === 'production';
  }

  /** The presented token, if it has a refresh token's shape. */
  read(req: Request): string | undefined {
    const value = (req.cookies as Record<string, unknown> | undefined)?.[REFRESH_COOKIE];
    return typeof value === 'string' && TOKEN_PATTERN.test(value) ? value : undefined;
  }

  /** Sets the cookie and answers the body. Without rememberMe it is a session cookie (the row still expires). */
  send<T>(res: Response, session: IssuedSession<T>): T {
    const maxAge = session.remember ? this.config.REFRESH_TOKEN_TTL_REMEMBER * 1000 : undefined;
    res.cookie(REFRESH_COOKIE, session.refreshToken, { ...this.options(), ...(maxAge ? { maxAge } : {}) });
    return session.body;
  }

  clear(res: Response): void {
    res.clearCookie(REFRESH_COOKIE, this.options());
  }

  /** Clears the cookie when the work fails, then lets the failure through. */
  async clearOnFailure<T>(res: Response, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      this.clear(res);
      throw err;
    }
  }
}
