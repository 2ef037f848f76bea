import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { ErrorEnvelope, ErrorKey } from '../errors';
import { allowedMethods } from './route-methods';

/** One year: browsers remember to use https only for the host (not its subdomains, which may be other tenants). */
export const HSTS = 'max-age=31536000';

/**
 * The cheap part of helmet, by hand: no sniffing, no referrer leaks, no framing by other sites. In
 * production, a request that reached us over https (directly, or per X-Forwarded-Proto from a trusted
 * proxy, see TRUST_PROXY) also gets HSTS; over plain http a browser would ignore it anyway.
 */
export function securityHeaders(production: boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    if (production && req.secure) res.setHeader('Strict-Transport-Security', HSTS);
    next();
  };
}

const JSON_TYPES = ['application/json', 'application/*+json'];
const underApi = (path: string) => /^\/api(\/|$)/i.test(path);
/** The one route that takes multipart (file uploads); everything else under /api takes JSON only. */
const isUpload = (req: Request) => req.method === 'POST' && /^\/api\/file\/?$/i.test(req.path);

/**
 * RFC 8058 one-click unsubscribe: the recipient's mail server POSTs `List-Unsubscribe=One-Click` form-encoded (or
 * multipart). The body is never read: the signed, single-use token in the URL is the whole request.
 */
const isOneClickUnsubscribe = (req: Request) => req.method === 'POST' && /^\/api\/email\/unsubscribe\/?$/i.test(req.path);
const ONE_CLICK_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * API bodies are JSON (uploads multipart): any other body type is 415 before a parser sees it, rather
 * than reaching a handler as an empty body and failing as a confusing 422. Form-encoded bodies are
 * what an HTML form on another site can post without a CORS preflight (login CSRF), so they are refused too.
 */
export function requireKnownBodyType(req: Request, res: Response, next: NextFunction): void {
  if (!underApi(req.path) || !hasBody(req)) return next();
  if (req.is(isUpload(req) ? ['multipart/form-data'] : isOneClickUnsubscribe(req) ? [...ONE_CLICK_TYPES, ...JSON_TYPES] : JSON_TYPES)) return next();
  const envelope: ErrorEnvelope = { code: 415, message: ErrorKey.UnsupportedMediaType };
  res.status(415).json(envelope);
}

/** OPTIONS on a path the app serves: 204 with Allow (no CORS: the client is same-origin). Unknown paths fall through to 404. */
export function answerOptions(req: Request, res: Response, next: NextFunction): void {
  if (req.method !== 'OPTIONS') return next();
  const methods = allowedMethods(req.app, req.path);
  if (!methods.length) return next();
  res.setHeader('Allow', methods.join(', '));
  res.status(204).end();
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origins the app itself is served from: the request's own host, and PUBLIC_URL when set. */
function ownOrigin(req: Pick<IncomingMessage, 'headers'>, origin: URL, publicUrl: URL | undefined): boolean {
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') return false;
  if (publicUrl && origin.origin === publicUrl.origin) return true;
  return !!req.headers.host && origin.host === req.headers.host.toLowerCase();
}

function parseOrigin(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/**
 * Whether a request comes from a page of another site: its `Origin` is not the request's own host nor
 * PUBLIC_URL (a sandboxed `null` origin included), or it has no Origin but `Sec-Fetch-Site: cross-site`.
 * Requests without either (curl, server-to-server, scripts, the tests) are not browsers and pass.
 */
export function crossSiteCheck(publicUrl: string | undefined): (req: Pick<IncomingMessage, 'headers'>) => boolean {
  const configured = publicUrl ? parseOrigin(publicUrl) : undefined;
  return (req) => {
    const origin = req.headers.origin;
    if (origin === undefined) return req.headers['sec-fetch-site'] === 'cross-site';
    const parsed = parseOrigin(origin);
    return !parsed || !ownOrigin(req, parsed, configured);
  };
}

/**
 * Cross-site request forgery guard for every state-changing /api call (login, register, refresh and
 * logout carry the refresh cookie): a browser names the page's origin in `Origin` on every POST, PUT,
 * PATCH and DELETE, and a page of another site (or a sandboxed `null` origin) is refused with 403.
 * Calls without Origin (curl, server-to-server, the tests) are not browsers and carry no ambient cookie
 * a page could abuse, so they pass; `Sec-Fetch-Site: cross-site` is refused even then.
 */
export function requireSameOrigin(publicUrl: string | undefined) {
  const crossSite = crossSiteCheck(publicUrl);
  return (req: Request, res: Response, next: NextFunction): void => {
    if (SAFE_METHODS.has(req.method) || !underApi(req.path) || !crossSite(req)) return next();
    const envelope: ErrorEnvelope = { code: 403, message: ErrorKey.CrossOrigin };
    res.status(403).json(envelope);
  };
}
