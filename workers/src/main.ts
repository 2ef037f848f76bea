import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadConfig } from '#shared/config/load-config';
import { checkPushConfig } from './push/push-sender';

async function bootstrap(): Promise<void> {
  checkPushConfig(loadConfig());
  // Loaded after the config checks, so a bad variable is reported at once.
  const { WorkerModule } = await import('./worker.module');
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  // SIGTERM / SIGINT: close() lets in-flight jobs finish, then closes Redis and Postgres.
  app.enableShutdownHooks();
  app.get(Logger).log('worker started');
}

bootstrap().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('worker failed to start:', err);
  }
  process.exit(1);
});
