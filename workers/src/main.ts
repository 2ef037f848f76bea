import 'reflect-metadata';
import { ConfigError, loadConfig } from '#shared/config/load-config';
import { startTracing } from '#shared/telemetry/tracing';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  // Before anything it instruments (http for web push, pg, Redis) is loaded; nothing at all when no endpoint is set.
  await startTracing(config, 'parley-worker');
  // Loaded after the config checks, so a bad variable is reported at once.
  const { checkPushConfig } = await import('./push/push-sender');
  checkPushConfig(config);
  const [{ NestFactory }, { Logger }, { WorkerModule }] = await Promise.all([import('@nestjs/core'), import('nestjs-pino'), import('./worker.module')]);
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
