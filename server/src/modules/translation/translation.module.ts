import { Module } from '@nestjs/common';
import { TranslationController } from './translation.controller';
import { TranslationStatusService } from './translation-status.service';

/** What the server says about machine translation (the worker translates; see docs/translation.md). */
@Module({
  controllers: [TranslationController],
  providers: [TranslationStatusService],
})
export class TranslationModule {}
