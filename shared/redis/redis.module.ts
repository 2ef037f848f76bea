import { Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import { AppConfig } from '../config/config.schema';
import { RedisService } from './redis.service';

@Global()
@Module({
  providers: [
    {
      provide: RedisService,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const redis = new RedisService(config);
        await redis.connect();
        return redis;
      },
    },
  ],
  exports: [RedisService],
})
export class RedisModule {}
