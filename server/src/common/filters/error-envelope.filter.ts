import { ArgumentsHost, BadRequestException, Catch, ExceptionFilter, HttpException, HttpStatus, Logger, NotFoundException } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError, ErrorEnvelope, ErrorKey } from '../errors';
import { allowedMethods } from '../middleware/route-methods';
import { isDependencyUnavailable } from './unavailable';

/** What a 503 for an unavailable database or Redis suggests the client waits before trying again. */
const UNAVAILABLE_RETRY_AFTER_S = 5;

const KEY_BY_STATUS: Record<number, string> = {
  400: ErrorKey.BadRequest,
  401: ErrorKey.Unauthorized,
  403: ErrorKey.Forbidden,
  404: ErrorKey.NotFound,
  405: ErrorKey.MethodNotAllowed,
  409: ErrorKey.Conflict,
  413: ErrorKey.PayloadTooLarge,
  415: ErrorKey.UnsupportedMediaType,
  422: ErrorKey.Validation,
  429: ErrorKey.TooManyRequests,
  503: ErrorKey.Unavailable,
};

/** Errors thrown by Express' body parser carry a status and a type instead of being HttpExceptions. */
interface BodyParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

export function toEnvelope(error: unknown): { envelope: ErrorEnvelope; headers: Record<string, string> } {
  // The router could not percent-decode a path parameter (Nest wraps its URIError in a 400). Escapes that are
  // well formed but decode to no text (%ED%A0%80, a lone surrogate in UTF-8 form) are an ill-formed string,
  // 422 like one anywhere else; a broken escape (%E0%A4%A) stays a malformed request, 400.
  if (error instanceof BadRequestException && decodesToNoText(error.message)) {
    return { envelope: { code: 422, message: ErrorKey.Validation, data: { brokenRules: ['VALIDATION.PARAM.ILL_FORMED_STRING'] } }, headers: {} };
  }
  if (error instanceof AppError) {
    return { envelope: error.getResponse() as ErrorEnvelope, headers: error.headers };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    return { envelope: { code: status, message: KEY_BY_STATUS[status] ?? ErrorKey.BadRequest }, headers: {} };
  }
  const bp = error as BodyParserError;
  const status = bp?.status ?? bp?.statusCode;
  if (bp?.expose && typeof status === 'number' && status >= 400 && status < 500) {
    const message = bp.type === 'entity.parse.failed' ? ErrorKey.MalformedJson : (KEY_BY_STATUS[status] ?? ErrorKey.BadRequest);
    return { envelope: { code: status, message }, headers: {} };
  }
  if (isDependencyUnavailable(error)) {
    return {
      envelope: { code: HttpStatus.SERVICE_UNAVAILABLE, message: ErrorKey.Unavailable },
      headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) },
    };
  }
  return { envelope: { code: HttpStatus.INTERNAL_SERVER_ERROR, message: ErrorKey.Internal }, headers: {} };
}

const UNDECODABLE_PARAM = /^Failed to decode param '(.*)'$/s;
const WELL_FORMED_ESCAPES = /^(?:[^%]|%[0-9A-Fa-f]{2})*$/;

function decodesToNoText(message: string): boolean {
  const param = UNDECODABLE_PARAM.exec(message)?.[1];
  return param !== undefined && WELL_FORMED_ESCAPES.test(param);
}

/** The single place that turns any failure into the error envelope; stacks are logged, never sent. */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const res = host.switchToHttp().getResponse<Response>();
    const req = host.switchToHttp().getRequest<Request>();
    const { envelope, headers } = methodNotAllowed(error, req) ?? toEnvelope(error);
    if (envelope.message === ErrorKey.Overloaded) {
      // Refusals under load are counted and logged by SendAdmission, not one line each.
    } else if (envelope.code === HttpStatus.SERVICE_UNAVAILABLE && !(error instanceof HttpException)) {
      this.logger.warn({ path: req.originalUrl, requestId: req.id }, `dependency unavailable: ${(error as Error).message}`);
    } else if (envelope.code >= 500) {
      this.logger.error({ err: error, path: req.originalUrl, requestId: req.id }, 'unhandled error');
    }
    if (res.headersSent) return;
    res.status(envelope.code).set(headers).json(envelope);
  }
}

/** Nest's "no route" 404 for a path that other methods do serve becomes 405 with Allow. */
function methodNotAllowed(error: unknown, req: Request): ReturnType<typeof toEnvelope> | undefined {
  if (!(error instanceof NotFoundException) || error instanceof AppError || !error.message.startsWith('Cannot ')) return undefined;
  const methods = allowedMethods(req.app, req.path);
  if (!methods.length || methods.includes(req.method)) return undefined;
  return {
    envelope: { code: HttpStatus.METHOD_NOT_ALLOWED, message: ErrorKey.MethodNotAllowed },
    headers: { Allow: methods.join(', ') },
  };
}

/**
 * Express error middleware for the body parser: its errors (malformed JSON, too large, bad charset)
 * never reach Nest's filters as themselves, so they are answered here with the same envelope.
 */
export function bodyParserErrorHandler(error: unknown, _req: Request, res: Response, next: (err?: unknown) => void): void {
  if (!(error as BodyParserError)?.type || res.headersSent) return next(error);
  const { envelope, headers } = toEnvelope(error);
  res.status(envelope.code).set(headers).json(envelope);
}
