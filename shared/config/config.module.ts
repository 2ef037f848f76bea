import { Global, Module } from '@nestjs/common';
import { AppConfig } from './config.schema';
import { loadConfig } from './load-config';

export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({
  providers: [{ provide: APP_CONFIG, useFactory: (): AppConfig => loadConfig() }],
  exports: [APP_CONFIG],
})
export class ConfigModule {}
