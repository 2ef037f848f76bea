import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { Logger } from 'nestjs-pino';
import { AppConfig } from './config/config.schema';
import { APP_CONFIG } from './config/config.module';
import { createValidationPipe } from './common/validation';
import { bodyParserErrorHandler } from './common/filters/error-envelope.filter';

/** Everything main.ts and the e2e tests both need on top of the module graph. */
export function configureApp(app: NestExpressApplication): AppConfig {
  const config = app.get<AppConfig>(APP_CONFIG);
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.TRUST_PROXY);
  app.disable('x-powered-by');
  app.useBodyParser('json', { limit: config.BODY_LIMIT, strict: true });
  app.useBodyParser('urlencoded', { limit: config.BODY_LIMIT, extended: false });
  app.use(bodyParserErrorHandler);
  app.use(cookieParser());
  app.setGlobalPrefix('api', { exclude: ['instance/styles.css', 'assets/config.json'] });
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  setupOpenApi(app);
  return config;
}

function setupOpenApi(app: INestApplication): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Parley API')
      .setDescription('REST API of Parley. Every error is answered as { code, message, data? }.')
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}
