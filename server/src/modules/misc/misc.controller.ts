import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../common/decorators/public.decorator';
import { CURRENCIES, DEFAULT_CURRENCY, SUGGESTED_CURRENCIES } from '#shared/contracts/currencies';
import { LANGUAGES } from '#shared/contracts/languages';
import { ClientConfigDto, TimezoneDto } from './dto/misc.dto';
import { TimezonesService } from './timezones.service';

const CLIENT_CONFIG: ClientConfigDto = {
  languages: LANGUAGES.map((l) => ({ code: l.code, locale: l.locale, suggestedCurrencies: [...SUGGESTED_CURRENCIES[l.code]] })),
  currencies: CURRENCIES.map((c) => ({ ...c })),
  defaultCurrency: DEFAULT_CURRENCY,
};

@ApiTags('misc')
@Public()
@Controller()
export class MiscController {
  constructor(private readonly timezones: TimezonesService) {}

  @Get('timezone')
  @Header('Cache-Control', 'public, max-age=3600')
  @ApiOperation({ summary: 'Every IANA time zone with its abbreviation and current UTC offset in minutes (public)' })
  @ApiOkResponse({ type: [TimezoneDto] })
  timezone(): Promise<readonly TimezoneDto[]> {
    return this.timezones.list();
  }

  /** Served outside /api (main's global prefix excludes it) because the client loads it as a static asset. */
  @Get('assets/config.json')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Client configuration: languages with suggested currencies, and the currency list (public, not under /api)' })
  @ApiOkResponse({ type: ClientConfigDto })
  config(): ClientConfigDto {
    return CLIENT_CONFIG;
  }
}
