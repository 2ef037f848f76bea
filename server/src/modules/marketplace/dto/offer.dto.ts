import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { MESSAGE_MAX_LENGTH } from '#shared/contracts/chat';
import { LANGUAGE_CODES } from '#shared/contracts/languages';
import { OfferStatus } from '#shared/contracts/offers';
import { CODE_PATTERN } from '../../../common/codes';
import { PageQueryDto } from '../../../common/dto/page-query.dto';
import { DEFAULT_PAYMENT_PROVIDER, PAYMENT_PROVIDER_NAMES } from '../payments/payment-provider';
import { MoneyDto, PriceDto } from './money.dto';
import type {
  OfferEventResponse,
  OfferJobResponse,
  OfferPageResponse,
  OfferResponse,
  PartyPaymentPageResponse,
  PartyPaymentResponse,
  PaymentResponse,
  PersonResponse,
} from '#shared/contracts/rest/marketplace';

export const OFFER_PAGE_SIZE = 50;

/** Price and deadline are given together or not at all (with them the offer starts as a Proposal). */
const priced = (o: CreateOfferDto) => o.price !== undefined || o.localPrice !== undefined || o.deadline !== undefined;

export class CreateOfferDto {
  @ApiPropertyOptional({ maxLength: MESSAGE_MAX_LENGTH, description: "a first message in the offer's chat, from the provider" })
  @IsOptional()
  @IsString()
  @MaxLength(MESSAGE_MAX_LENGTH)
  message?: string;

  @ApiPropertyOptional({
    enum: LANGUAGE_CODES,
    description: "the language the first message is written in (as a chat message's lang); absent: the query's lang",
  })
  @IsOptional()
  @IsIn(LANGUAGE_CODES)
  lang?: string;

  @ApiPropertyOptional({ type: PriceDto, description: 'with deadline: the offer is made and priced at once (it starts as a Proposal)' })
  @ValidateIf(priced)
  @IsObject()
  @ValidateNested()
  @Type(() => PriceDto)
  price?: PriceDto;

  @ApiPropertyOptional({ type: PriceDto, description: 'the price in another currency, for the customer; defaults to price' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PriceDto)
  localPrice?: PriceDto;

  @ApiPropertyOptional({ description: 'UTC ISO 8601 date-time, in the future; required with price' })
  @ValidateIf(priced)
  @IsString()
  @IsISO8601({ strict: true, strictSeparator: true })
  deadline?: string;
}

/** PUT: the provider sets price and deadline (Initial → Proposal) or revises them (Proposal → Proposal). */
export class UpdateOfferDto {
  @ApiProperty({ type: PriceDto })
  @IsObject()
  @ValidateNested()
  @Type(() => PriceDto)
  price: PriceDto;

  @ApiPropertyOptional({ type: PriceDto, description: 'the price in another currency, for the customer; defaults to price' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PriceDto)
  localPrice?: PriceDto;

  @ApiProperty({ description: 'UTC ISO 8601 date-time, in the future' })
  @IsString()
  @IsISO8601({ strict: true, strictSeparator: true })
  deadline: string;
}

export class ChooseOfferDto {
  @ApiProperty({ description: 'false: the job stops taking offers and its other open offers (not yet chosen) are closed' })
  @IsBoolean()
  allowForMoreOffers: boolean;
}

export class PayOfferDto {
  @ApiPropertyOptional({ enum: PAYMENT_PROVIDER_NAMES, default: DEFAULT_PAYMENT_PROVIDER, description: 'the payment provider' })
  @IsOptional()
  @IsString()
  @IsIn(PAYMENT_PROVIDER_NAMES)
  provider?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'manual payments: a transfer reference, kept with the payment' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  reference?: string;
}

export class OfferCodesDto {
  @ApiProperty({ type: [String], maxItems: 100 })
  @IsArray()
  @ArrayMinSize(0)
  @ArrayMaxSize(100)
  @Matches(CODE_PATTERN, { each: true })
  codes: string[];
}

export class OfferListQueryDto extends PageQueryDto(100, OFFER_PAGE_SIZE) {
  @ApiPropertyOptional({ enum: LANGUAGE_CODES })
  @IsOptional()
  @IsIn(LANGUAGE_CODES)
  lang?: string;
}

// ---- responses ----

export class OfferJobDto implements OfferJobResponse {
  @ApiProperty() code: string;
  @ApiProperty() title: string;
  @ApiProperty() description: string;
  @ApiProperty() lang: string;
  @ApiProperty({ nullable: true, type: String }) deadline: string | null;
}

export class OfferDto implements OfferResponse {
  @ApiProperty() code: string;
  @ApiProperty({
    enum: OfferStatus,
    description: '1 Initial, 5 Proposal, 10 FinalOffer, 50 CustomerApproved, 100 Agreed, 130 FinalizeRequested, 160 PaymentPending, 200 Closed',
  })
  status: OfferStatus;
  @ApiProperty({ nullable: true, type: String, description: 'UTC ISO 8601' }) deadline: string | null;
  @ApiProperty({ nullable: true, type: MoneyDto }) price: MoneyDto | null;
  @ApiProperty({ nullable: true, type: MoneyDto }) localPrice: MoneyDto | null;
  @ApiProperty() jobCode: string;
  @ApiProperty({ nullable: true, type: String, description: "the offer's chat" }) groupCode: string | null;
  @ApiProperty() providerCode: string;
  @ApiProperty() customerCode: string;
  @ApiProperty() createdAt: string;
  @ApiProperty({ description: 'optimistic-lock version, bumped by every change' }) version: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'when the current waiting status lapses (UTC ISO): expiry, or a finalisation request accepted for the customer; null: never',
  })
  lapsesAt: string | null;
  @ApiPropertyOptional({ type: OfferJobDto }) job?: OfferJobDto;
}

export class OfferPageDto implements OfferPageResponse {
  @ApiProperty({ type: [OfferDto] }) offers: OfferDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}

export class PaymentDto implements PaymentResponse {
  @ApiProperty() code: string;
  @ApiProperty({ type: MoneyDto }) amount: MoneyDto;
  @ApiProperty({
    enum: ['pending', 'succeeded', 'failed', 'disputed'],
    description: 'pending: declared, waiting for the provider to confirm it arrived; disputed: the provider says it has not',
  })
  status: string;
  @ApiProperty() provider: string;
  @ApiProperty({ nullable: true, type: String }) reference: string | null;
  @ApiProperty() createdAt: string;
}

export class PayResultDto {
  @ApiProperty({ type: OfferDto }) offer: OfferDto;
  @ApiProperty({ type: PaymentDto }) payment: PaymentDto;
}

export class OfferEventActorDto implements PersonResponse {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty() surname: string;
}

/** One move in an offer's history. */
export class OfferEventDto implements OfferEventResponse {
  @ApiProperty({ nullable: true, type: Number, enum: OfferStatus, description: 'null for the creation' }) from: OfferStatus | null;
  @ApiProperty({ enum: OfferStatus }) to: OfferStatus;
  @ApiProperty({
    description:
      'create, update, final, choose, reapprove, finalizeRequest, approveFinalizeRequest, pay, confirmPayment, disputePayment, settle (the payment provider took the money at once), withdraw, reject, closeOthers (closed because the customer chose another offer)',
  })
  call: string;
  @ApiProperty({ description: 'UTC ISO' }) at: string;
  @ApiProperty({ nullable: true, type: OfferEventActorDto, description: 'null when the user is gone' }) actor: OfferEventActorDto | null;
}

/** One payment on the payments screen: made by the caller (as customer) or received (as provider). */
export class PartyPaymentDto extends PaymentDto implements PartyPaymentResponse {
  @ApiProperty() offerCode: string;
  @ApiProperty() jobCode: string;
  @ApiProperty({ description: "the job's title in the asked language, else its default version" }) jobTitle: string;
  @ApiProperty({ enum: ['made', 'received'], description: 'made: the caller paid; received: the caller was paid' }) direction: 'made' | 'received';
  @ApiProperty({ nullable: true, type: OfferEventActorDto, description: 'the provider for a payment made, the customer for one received' })
  otherParty: OfferEventActorDto | null;
}

export class PartyPaymentPageDto implements PartyPaymentPageResponse {
  @ApiProperty({ type: [PartyPaymentDto] }) payments: PartyPaymentDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}
