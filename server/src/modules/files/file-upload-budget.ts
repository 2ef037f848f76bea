import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { AuthUser } from '#shared/contracts/auth';
import { unprocessable } from '../../common/errors';
import { RateLimitService } from '../../common/rate-limit/rate-limit.service';
import { userBudgetRule } from '../../common/rate-limit/user-rate-limit.guard';
import { ImageHeader } from './image-header';

/** Upload budget units an image costs: one per FILE_IMAGE_BUDGET_UNIT_BYTES decoded bytes, rounded up, at least one. */
export function imageBudgetCost(header: Pick<ImageHeader, 'decodedBytes'>, unitBytes: number): number {
  return Math.max(1, Math.ceil(header.decodedBytes / unitBytes));
}

/**
 * What an image costs before it is decoded: refused when its header says it decodes past
 * FILE_IMAGE_MAX_DECODED_BYTES, else charged to the uploader's upload budget (UPLOAD_RATE_LIMIT) in proportion
 * to its decoded size. Every upload has spent one unit in @RateLimitedPerUser('upload'); this spends the rest.
 */
@Injectable()
export class FileUploadBudget {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rateLimit: RateLimitService,
  ) {}

  async chargeImage(user: AuthUser, header: ImageHeader): Promise<void> {
    const max = this.config.FILE_IMAGE_MAX_DECODED_BYTES;
    if (header.decodedBytes > max) {
      throw unprocessable(['VALIDATION.FILE.IMAGE_TOO_LARGE'], { decodedBytes: header.decodedBytes, maxDecodedBytes: max });
    }
    const extra = imageBudgetCost(header, this.config.FILE_IMAGE_BUDGET_UNIT_BYTES) - 1;
    if (extra > 0) await this.rateLimit.consume([userBudgetRule(this.config, 'upload', user.code, extra)]);
  }
}
