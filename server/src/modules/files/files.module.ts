import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { memoryStorage } from 'multer';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { ChatAccessModule } from '../chat/chat-access.module';
import { FileRenditionsService } from './file-renditions.service';
import { FileUploadBudget } from './file-upload-budget';
import { FilesController } from './files.controller';
import { FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { FileStorage } from './storage/file-storage';
import { LocalDiskStorage } from './storage/local-disk.storage';

@Module({
  imports: [
    ChatAccessModule,
    RateLimitModule,
    // One file of at most FILE_MAX_SIZE bytes (multer answers 413 above it) and a few small fields.
    MulterModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        storage: memoryStorage(),
        // Browsers send the file name as raw UTF-8 bytes; multer's default (latin1) would store mojibake.
        defParamCharset: 'utf8',
        limits: { fileSize: config.FILE_MAX_SIZE, files: 1, fields: 5, fieldSize: 1024, parts: 8 },
      }),
    }),
  ],
  controllers: [FilesController],
  providers: [
    FilesRepository,
    FilesService,
    FileRenditionsService,
    FileUploadBudget,
    { provide: FileStorage, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new LocalDiskStorage(config.FILES_DIR) },
  ],
  exports: [FilesService, FileRenditionsService],
})
export class FilesModule {}
