import { ApiProperty } from '@nestjs/swagger';
import type { TranslationStatusResponse } from '#shared/contracts/translation';

export class LanguagePairDto {
  @ApiProperty({ example: 'spa' }) from: string;
  @ApiProperty({ example: 'eng' }) to: string;
}

export class TranslationStatusDto implements TranslationStatusResponse {
  @ApiProperty({ description: 'false: no engine configured, none serves any pair, or no worker has said which it serves' })
  enabled: boolean;
  @ApiProperty({ type: [LanguagePairDto], description: 'the language pairs some engine serves (product codes)' })
  pairs: LanguagePairDto[];
}
