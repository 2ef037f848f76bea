import 'reflect-metadata';
import { ConfigError, loadConfig } from '#shared/config/load-config';
import { startTracing } from '#shared/telemetry/tracing';

async function bootstrap(): Promise<void> {
  // The environment is checked before the application's modules load, so a bad variable is reported at once.
  const config = loadConfig();
  // Before anything it instruments (http, express, pg, Redis) is loaded; nothing at all when no endpoint is set.
  await startTracing(config, 'parley-server');
  const { NestFactory } = await import('@nestjs/core');
  const { DataSource } = await import('typeorm');
  const { dataSourceOptions, runMigrations } = await import('./database/data-source');
  if (config.MIGRATIONS_RUN) {
    const ds = await new DataSource(dataSourceOptions(config)).initialize();
    try {
      await runMigrations(ds);
    } finally {
      await ds.destroy();
    }
  }
  const { AppModule } = await import('./app.module');
  const { configureApp } = await import('./app.setup');
  const app = await NestFactory.create<import('@nestjs/platform-express').NestExpressApplication>(AppModule, {
    bufferLogs: true,
    bodyParser: false,
  });
  configureApp(app);
  const { drainOnSigterm } = await import('./modules/lifecycle/drain-on-sigterm');
  drainOnSigterm(app);
  await app.listen(config.PORT, config.HOST);
}

bootstrap().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('server failed to start:', err);
  }
  process.exit(1);
});
