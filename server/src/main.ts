import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { ConfigError, loadConfig } from './config/load-config';
import { dataSourceOptions, runMigrations } from './database/data-source';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  if (config.MIGRATIONS_RUN) {
    const ds = await new DataSource(dataSourceOptions(config)).initialize();
    try {
      await runMigrations(ds);
    } finally {
      await ds.destroy();
    }
  }
  const app = await NestFactory.create<NestExpressApplication>(AppModule, { bufferLogs: true, bodyParser: false });
  configureApp(app);
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
