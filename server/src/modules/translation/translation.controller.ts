import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TranslationStatusDto } from './dto/translation-status.dto';
import { TranslationStatusService } from './translation-status.service';

@ApiTags('translation')
@ApiBearerAuth()
@Controller('translation')
export class TranslationController {
  constructor(private readonly status: TranslationStatusService) {}

  @Get()
  @ApiOperation({ summary: 'Whether machine translation is on, and the language pairs its engines serve (the client says "translation off" elsewhere)' })
  @ApiOkResponse({ type: TranslationStatusDto })
  get(): Promise<TranslationStatusDto> {
    return this.status.status();
  }
}
