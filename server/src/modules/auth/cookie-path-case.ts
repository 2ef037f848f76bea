import type { NextFunction, Request, Response } from 'express';
import { REFRESH_COOKIE_PATH } from './refresh-cookie';

/** The routes that read the refresh cookie, as spelled under its Path. */
const COOKIE_ROUTES = new Set([`${REFRESH_COOKIE_PATH}/refresh-token`, `${REFRESH_COOKIE_PATH}/logout`]);

/**
 * Routes are case-insensitive, but browsers and HTTP clients match a cookie's Path case-sensitively: a request to
 * /api/User/refresh-token would go without the refresh cookie (Path=/api/user) and get 401. Another spelling of a
 * route that reads the cookie is sent on to the cookie's own with 308 (method and body kept, query too), so the
 * client sends it again, cookie included. Other routes keep answering under any spelling.
 */
export function canonicalCookiePath(req: Request, res: Response, next: NextFunction): void {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const canonical = path.toLowerCase().replace(/\/+$/, '');
  if (path === canonical || !COOKIE_ROUTES.has(canonical)) return next();
  res.redirect(308, canonical + (query === -1 ? '' : url.slice(query)));
}
