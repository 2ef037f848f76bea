import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerModuleAsyncParams } from 'nestjs-pino';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config.schema';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Structured JSON logs; every request gets an id (taken from X-Request-Id when sane) echoed back in the response. */
export const loggerOptions: LoggerModuleAsyncParams = {
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => ({
    pinoHttp: {
      level: config.LOG_LEVEL,
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      redact: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
      customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
      autoLogging: { ignore: (req: IncomingMessage) => req.url === '/api/health' },
    },
  }),
};
