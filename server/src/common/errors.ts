import { HttpException, HttpStatus } from '@nestjs/common';

/** The one error envelope every failure is answered with. */
export interface ErrorEnvelope {
  code: number;
  message: string;
  data?: { brokenRules?: string[]; [key: string]: unknown };
}

/** Translation keys of the errors the server answers with. */
export const ErrorKey = {
  BadRequest: 'SHARED.ERROR.BAD_REQUEST',
  MalformedJson: 'SHARED.ERROR.MALFORMED_JSON',
  Unauthorized: 'SHARED.ERROR.UNAUTHORIZED',
  SessionExpired: 'SHARED.USER.SESSION_EXPIRED',
  InvalidCredentials: 'SHARED.USER.INVALID_CREDENTIALS',
  Forbidden: 'SHARED.ERROR.FORBIDDEN',
  CrossOrigin: 'SHARED.ERROR.CROSS_ORIGIN',
  NotFound: 'SHARED.ERROR.NOT_FOUND',
  MethodNotAllowed: 'SHARED.ERROR.METHOD_NOT_ALLOWED',
  Conflict: 'SHARED.ERROR.CONFLICT',
  EmailTaken: 'SHARED.USER.EMAIL_TAKEN',
  /** The push endpoint is another user's, registered with other keys (see PushSubscriptionsRepository.register). */
  PushEndpointTaken: 'SHARED.PUSH.ENDPOINT_TAKEN',
  PayloadTooLarge: 'SHARED.ERROR.PAYLOAD_TOO_LARGE',
  UnsupportedMediaType: 'SHARED.ERROR.UNSUPPORTED_MEDIA_TYPE',
  Validation: 'SHARED.ERROR.VALIDATION',
  TooManyRequests: 'SHARED.ERROR.TOO_MANY_REQUESTS',
  Internal: 'SHARED.ERROR.INTERNAL',
  Unavailable: 'SHARED.ERROR.UNAVAILABLE',
  /** This node refuses sends for a moment to keep its deliveries on time (see SendAdmission); retryable. */
  Overloaded: 'SHARED.ERROR.OVERLOADED',
  /** No machine translation engine is on (or no worker has said which pairs it serves). */
  TranslationOff: 'SHARED.TRANSLATION.OFF',
  /** No engine translates this pair of languages. */
  TranslationUnsupported: 'SHARED.TRANSLATION.UNSUPPORTED_PAIR',
  /** The engine failed or did not answer in time; asking again may work. */
  TranslationFailed: 'SHARED.TRANSLATION.FAILED',
} as const;

export class AppError extends HttpException {
  constructor(status: HttpStatus, key: string, data?: ErrorEnvelope['data'], headers?: Record<string, string>) {
    super({ code: status, message: key, ...(data ? { data } : {}) } satisfies ErrorEnvelope, status);
    this.headers = headers ?? {};
  }
  readonly headers: Record<string, string>;
}

export const notFound = (key: string = ErrorKey.NotFound) => new AppError(HttpStatus.NOT_FOUND, key);
export const forbidden = (key: string = ErrorKey.Forbidden) => new AppError(HttpStatus.FORBIDDEN, key);
export const unauthorized = (key: string = ErrorKey.Unauthorized) => new AppError(HttpStatus.UNAUTHORIZED, key);
export const conflict = (key: string = ErrorKey.Conflict) => new AppError(HttpStatus.CONFLICT, key);
export const unprocessable = (brokenRules: string[], extra?: Record<string, unknown>) =>
  new AppError(HttpStatus.UNPROCESSABLE_ENTITY, ErrorKey.Validation, { brokenRules, ...extra });
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(
    HttpStatus.TOO_MANY_REQUESTS,
    ErrorKey.TooManyRequests,
    { retryAfter: retryAfterSeconds },
    {
      'Retry-After': String(retryAfterSeconds),
    },
  );

/** 503, retryable: the client sends the same again (same client key) after `retryAfterMs`, with back-off. */
export const overloaded = (retryAfterMs: number) =>
  new AppError(HttpStatus.SERVICE_UNAVAILABLE, ErrorKey.Overloaded, { retryAfterMs }, { 'Retry-After': String(Math.ceil(retryAfterMs / 1000)) });
