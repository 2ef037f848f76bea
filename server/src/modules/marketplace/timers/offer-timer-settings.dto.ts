import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { OFFER_TIMER_LIMITS, OfferTimerSettings } from '#shared/contracts/offers';
import { CODE_PATTERN } from '../../../common/codes';

const MAX = OFFER_TIMER_LIMITS.maxDays;

/** Which instance: the caller's own unless a global admin names another. */
export class OfferTimerSettingsQueryDto {
  @ApiPropertyOptional({ description: "instance code (default: the caller's own); only a global admin may name another one" })
  @IsOptional()
  @IsString()
  @Matches(CODE_PATTERN)
  instanceCode?: string;
}

/** Fields left out stay as they are. Broken rules: VALIDATION.<FIELD>.{IS_INT,MIN,MAX,IS_ARRAY,ARRAY_MAX_SIZE,ASCENDING}. */
export class UpdateOfferTimerSettingsDto extends OfferTimerSettingsQueryDto {
  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX,
    description: 'days a Proposal, Final offer or chosen offer may wait for a move before it expires; 0: never',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX)
  offerExpiryDays?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX, description: 'days a finalisation request waits for the customer before it is accepted for them; 0: never' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX)
  finalizeAutoAcceptDays?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX, description: 'days before a lapse that the party whose move it is is reminded; 0: no reminder' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX)
  reminderDaysBefore?: number;

  @ApiPropertyOptional({
    type: [Number],
    maxItems: OFFER_TIMER_LIMITS.maxPaymentReminders,
    description: 'days after the payment was asked for that the customer is reminded, ascending, each 1–365',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(OFFER_TIMER_LIMITS.maxPaymentReminders)
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(MAX, { each: true })
  paymentReminderDays?: number[];
}

export class OfferTimerSettingsDto implements OfferTimerSettings {
  @ApiProperty() instanceCode: string;
  @ApiProperty() offerExpiryDays: number;
  @ApiProperty() finalizeAutoAcceptDays: number;
  @ApiProperty() reminderDaysBefore: number;
  @ApiProperty({ type: [Number] }) paymentReminderDays: number[];
}
