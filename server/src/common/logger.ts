import { RequestMethod } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { LoggerModuleAsyncParams } from 'nestjs-pino';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { traceLogMixin } from '#shared/telemetry/trace-context';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** The request's id: X-Request-Id when sane, else a random UUID; echoed in the response once. */
function requestId(req: { id?: unknown; headers: IncomingHttpHeaders }, res: { setHeader(name: string, value: string): unknown }): string {
  if (typeof req.id === 'string') return req.id;
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * Runs first (before the body parsers), so even requests that fail before Nest's middleware (too
 * large, malformed JSON, unknown routes) carry an id; pino-http then reuses req.id.
 */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  req.id = requestId(req, res);
  next();
}

/** Structured JSON logs; every request gets an id (taken from X-Request-Id when sane) echoed back in the response. */
export const loggerOptions: LoggerModuleAsyncParams = {
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => ({
    // Express 5's path syntax (nestjs-pino's default '*' makes Nest warn at every start).
    forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      level: config.LOG_LEVEL,
      // While tracing: trace_id and span_id in every line logged inside a span.
      ...traceLogMixin(),
      genReqId: requestId,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
      // Probes ask every few seconds; a readiness 503 while draining or while a dependency is down is expected.
      autoLogging: { ignore: (req: IncomingMessage) => req.url?.startsWith('/api/health') === true },
    },
  }),
};
