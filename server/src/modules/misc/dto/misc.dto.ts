import { ApiProperty } from '@nestjs/swagger';
import type { ClientConfigResponse, CurrencyResponse, LanguageConfigResponse } from '#shared/contracts/rest/misc';
import type { UserTimezone } from '#shared/contracts/rest/users';

export class TimezoneDto implements UserTimezone {
  @ApiProperty({ example: 'Europe/Warsaw', description: 'IANA zone name' }) name: string;
  @ApiProperty({ example: 'CET', description: 'short name; "GMT+5:30"-style where the zone has no common abbreviation' })
  abbr: string;
  @ApiProperty({ example: 60, description: 'minutes east of UTC, at the time the list was computed (refreshed hourly)' })
  offset: number;
}

export class LanguageConfigDto implements LanguageConfigResponse {
  @ApiProperty({ example: 'eng', enum: ['eng', 'pol', 'rus', 'hin', 'ger', 'spa', 'fra'] }) code: string;
  @ApiProperty({ example: 'en_US' }) locale: string;
  @ApiProperty({ type: [String], example: ['USD', 'EUR', 'GBP'], description: 'ISO 4217 codes, the first is the suggestion' })
  suggestedCurrencies: string[];
}

export class CurrencyDto implements CurrencyResponse {
  @ApiProperty({ example: 'USD', description: 'ISO 4217 code' }) code: string;
  @ApiProperty({ example: 'US Dollar' }) name: string;
  @ApiProperty({ example: 2, description: 'decimal places an amount may carry' }) decimals: number;
}

export class ClientConfigDto implements ClientConfigResponse {
  @ApiProperty({ type: [LanguageConfigDto] }) languages: LanguageConfigDto[];
  @ApiProperty({ type: [CurrencyDto], description: 'every currency a price may be given in' }) currencies: CurrencyDto[];
  @ApiProperty({ example: 'USD', description: 'suggested when nothing else applies' }) defaultCurrency: string;
}
