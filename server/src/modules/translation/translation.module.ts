import { Module } from '@nestjs/common';
import { QueueModule } from '#shared/queue/queue.module';
import { MachineTranslationService } from './machine-translation.service';
import { TranslationController } from './translation.controller';
import { TranslationStatusService } from './translation-status.service';

/** What the server says about machine translation (the worker translates; see docs/translation.md). */
@Module({
  imports: [QueueModule],
  controllers: [TranslationController],
  providers: [TranslationStatusService, MachineTranslationService],
  exports: [MachineTranslationService],
})
export class TranslationModule {}
