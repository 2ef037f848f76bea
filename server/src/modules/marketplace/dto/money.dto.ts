import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString } from 'class-validator';
import { CURRENCY_CODES, DEFAULT_CURRENCY } from '#shared/contracts/currencies';
import { MAX_PRICE_AMOUNT } from '#shared/contracts/offers';
import { AmountRules, numberToDecimal } from '../money';
import type { MoneyResponse } from '#shared/contracts/rest/marketplace';

/** Money in a request: a decimal string (or a JSON number, read as the decimal it spells) and a currency of the config's list. */
export class PriceDto {
  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'number' }],
    example: '12.50',
    description: `decimal string or JSON number, > 0, at most the currency's decimals (2; JPY 0), at most ${MAX_PRICE_AMOUNT}; answers always carry a string`,
  })
  @Transform(({ value }) => numberToDecimal(value))
  @IsString()
  @AmountRules()
  amount: string;

  @ApiProperty({ enum: CURRENCY_CODES, example: DEFAULT_CURRENCY })
  @IsString()
  @IsIn(CURRENCY_CODES)
  currency: string;
}

/** Money in a response: the amount as a decimal string, never a float. */
export class MoneyDto implements MoneyResponse {
  @ApiProperty({ example: '12.50' }) amount: string;
  @ApiProperty({ example: 'USD' }) currency: string;
}
