import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString } from 'class-validator';
import { CURRENCY_CODES, DEFAULT_CURRENCY } from '../../../contracts/currencies';
import { MAX_PRICE_AMOUNT } from '../../../contracts/offers';
import { AmountRules } from '../money';

/** Money in a request: a decimal string and an ISO 4217 code from the config's currency list. */
export class PriceDto {
  @ApiProperty({
    example: '12.50',
    description: `decimal string, > 0, at most the currency's decimals (2; JPY 0), at most ${MAX_PRICE_AMOUNT}; numbers are refused`,
  })
  @IsString()
  @AmountRules()
  amount: string;

  @ApiProperty({ enum: CURRENCY_CODES, example: DEFAULT_CURRENCY })
  @IsString()
  @IsIn(CURRENCY_CODES)
  currency: string;
}

/** Money in a response: the amount as a decimal string, never a float. */
export class MoneyDto {
  @ApiProperty({ example: '12.50' }) amount: string;
  @ApiProperty({ example: 'USD' }) currency: string;
}
