import type { NextFunction, Request, Response } from 'express';
import { ErrorEnvelope, ErrorKey } from '../errors';
import { allowedMethods } from './route-methods';

/** The cheap part of helmet, by hand: no sniffing, no referrer leaks, no framing by other sites. */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  next();
}

const BODY_TYPES = ['application/json', 'application/*+json', 'multipart/form-data', 'application/x-www-form-urlencoded'];
const underApi = (path: string) => /^\/api(\/|$)/i.test(path);

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * API bodies are JSON (uploads multipart): any other body type is 415 before a parser sees it, rather
 * than reaching a handler as an empty body and failing as a confusing 422.
 */
export function requireKnownBodyType(req: Request, res: Response, next: NextFunction): void {
  if (!underApi(req.path) || !hasBody(req) || req.is(BODY_TYPES)) return next();
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
