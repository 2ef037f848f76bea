import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config.schema';
import { postgresOptions, SchemaOptions } from './postgres-options';

/** TypeORM's DataSource for Nest (inject it with @InjectDataSource); the server passes its entities and migrations. */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(schema: SchemaOptions = {}): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig) => ({ ...postgresOptions(config, schema), retryAttempts: 3, retryDelay: 1000 }),
        }),
      ],
    };
  }
}
