import { INestApplication, ShutdownSignal } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { ModulesContainer } from '@nestjs/core';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { Logger } from 'nestjs-pino';
import { AppConfig } from '#shared/config/config.schema';
import { APP_CONFIG } from '#shared/config/config.module';
import { createValidationPipe } from './common/validation';
import { RedisIoAdapter } from './realtime/redis-io.adapter';
import { RedisService } from '#shared/redis/redis.service';
import { bodyParserErrorHandler } from './common/filters/error-envelope.filter';
import { requestIdMiddleware } from './common/logger';
import { canonicalCookiePath } from './modules/auth/cookie-path-case';
import { IS_PUBLIC } from './common/decorators/public.decorator';
import { addErrorModel } from './openapi/error-model';
import { socketAsyncApi } from './realtime/asyncapi/socket-asyncapi';
import type { Request, Response } from 'express';
import { DrainState } from './modules/lifecycle/drain-state';
import { closeConnectionsWhileDraining } from './modules/lifecycle/close-connections-while-draining';
import { answerOptions, requireKnownBodyType, requireSameOrigin, securityHeaders } from './common/middleware/http-hardening';

/** Everything main.ts and the e2e tests both need on top of the module graph. */
export function configureApp(app: NestExpressApplication): AppConfig {
  const config = app.get<AppConfig>(APP_CONFIG);
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.TRUST_PROXY);
  app.disable('x-powered-by');
  app.use(
    closeConnectionsWhileDraining(app.get(DrainState)),
    requestIdMiddleware,
    securityHeaders(config.NODE_ENV === 'production'),
    answerOptions,
    requireSameOrigin(config.PUBLIC_URL),
    canonicalCookiePath,
    requireKnownBodyType,
  );
  app.useBodyParser('json', { limit: config.BODY_LIMIT, strict: true });
  app.use(bodyParserErrorHandler);
  app.use(cookieParser());
  app.setGlobalPrefix('api', { exclude: ['instance/styles.css', 'assets/config.json'] });
  app.useGlobalPipes(createValidationPipe());
  app.useWebSocketAdapter(new RedisIoAdapter(app, app.get(RedisService)));
  // SIGTERM drains first (main.ts: drainOnSigterm); every other signal closes at once.
  app.enableShutdownHooks(Object.values(ShutdownSignal).filter((signal) => signal !== ShutdownSignal.SIGTERM));
  setupOpenApi(app);
  return config;
}

const API_DESCRIPTION = [
  'REST API of Parley. Routes are case-insensitive (/api/Instance = /api/instance).',
  '',
  'Every failure is answered as `{ code, message, data? }`: `code` is the HTTP status, `message` a translation key',
  '(SHARED.ERROR.*), and 422 carries `data.brokenRules`, one translation key per broken rule (VALIDATION.<FIELD>.<RULE>).',
  '400 malformed JSON (also a bare string/number/null body), 401 no or bad token, 403 role, 404 unknown route or',
  'an object the caller may not see, 405 wrong method (with Allow), 409 conflict, 413 body over BODY_LIMIT,',
  '403 also for a state-changing call whose Origin is another site, 415 an /api body that is not JSON (multipart only for',
  'POST /api/File uploads; form-encoded bodies are refused), 422 validation (unknown fields, wrong types, too long,',
  'nesting deeper than 32, NUL characters), 429 rate limit (with Retry-After), 500 internal (never a stack or message).',
  'Every response carries X-Request-Id (the one sent, if sane, else a fresh UUID), which the logs carry too.',
].join('\n');

function setupOpenApi(app: INestApplication): void {
  const config = new DocumentBuilder().setTitle('Parley API').setDescription(API_DESCRIPTION).setVersion('1').addServer('/').addBearerAuth().build();
  const document = addErrorModel(SwaggerModule.createDocument(app, config), publicOperations(app));
  // The socket contract beside it (docs/realtime.md).
  const asyncApi = socketAsyncApi();
  app.getHttpAdapter().get('/api/docs/asyncapi.json', (_req: Request, res: Response) => res.json(asyncApi));
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}

/** Whether an operation (Nest's `Controller_method` id) needs no access token: @Public on the method or its controller. */
function publicOperations(app: INestApplication): (operationId: string) => boolean {
  const open = new Set<string>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const { metatype } of module.controllers.values()) {
      if (typeof metatype !== 'function') continue;
      const controller = metatype as unknown as { name: string; prototype: Record<string, unknown> };
      const wholeClass = Reflect.getMetadata(IS_PUBLIC, controller) === true;
      for (const key of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[key];
        if (key !== 'constructor' && typeof handler === 'function' && (wholeClass || Reflect.getMetadata(IS_PUBLIC, handler) === true)) {
          open.add(`${controller.name}_${key}`);
        }
      }
    }
  }
  return (operationId) => open.has(operationId);
}
