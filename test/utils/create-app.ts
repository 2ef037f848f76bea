import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { AppModule } from '../../server/src/app.module';
import { configureApp } from '../../server/src/app.setup';
import { APP_CONFIG } from '#shared/config/config.module';
import { loadConfig } from '#shared/config/load-config';
import { testEnv } from './test-env';

export interface TestApp {
  app: NestExpressApplication;
  http: () => ReturnType<typeof request>;
  close: () => Promise<void>;
}

/** A provider the test puts in place of the app's own (e.g. a signal source it controls). */
export interface ProviderOverride {
  provide: unknown;
  useValue: unknown;
}

/** Boots the real app module against this run's Postgres and Redis; env overrides change its config. */
export async function createTestApp(overrides: Record<string, string> = {}, providers: ProviderOverride[] = []): Promise<TestApp> {
  const builder = Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(APP_CONFIG)
    .useValue(loadConfig(testEnv(overrides)));
  for (const { provide, useValue } of providers) builder.overrideProvider(provide).useValue(useValue);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: false });
  configureApp(app);
  await app.init();
  return {
    app,
    http: () => request(app.getHttpServer()),
    close: () => app.close(),
  };
}
