import { applyDecorators, Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { IDEMPOTENCY_KEY_TTL_HOURS } from '#shared/contracts/offers';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { RateLimitedPerUser } from '../../common/rate-limit/user-rate-limit.guard';
import { CodeParamPipe } from '../../common/pipes';
import { LangQueryDto } from './dto/job.dto';
import {
  ChooseOfferDto,
  CreateOfferDto,
  OfferCodesDto,
  OfferDto,
  OfferEventDto,
  OfferListQueryDto,
  OfferPageDto,
  PayOfferDto,
  PayResultDto,
  UpdateOfferDto,
} from './dto/offer.dto';
import { IdempotencyStore } from './idempotency.store';
import { MoveRequest, OfferTransitionsService } from './offer-transitions.service';
import { OffersService } from './offers.service';

/** A transition route: 200 with the offer, 409 for a move the table doesn't allow or a lost race, Idempotency-Key honoured. */
function Move(summary: string, type: unknown = OfferDto) {
  return applyDecorators(
    HttpCode(200),
    ApiOperation({ summary }),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description: `8-100 of [A-Za-z0-9_.:-]; the same key from the same user answers the first successful result for ${IDEMPOTENCY_KEY_TTL_HOURS} h`,
    }),
    ApiOkResponse({ type: type as never }),
    ApiConflictResponse({ description: 'JOB_OFFER.ILLEGAL_TRANSITION (not allowed from this status) or JOB_OFFER.CHANGED_MEANWHILE (lost a race)' }),
  );
}

@ApiTags('offers')
@ApiBearerAuth()
@Controller('jobs')
export class OffersController {
  constructor(
    private readonly offers: OffersService,
    private readonly transitions: OfferTransitionsService,
  ) {}

  @Post('offers/ByIdList')
  @HttpCode(200)
  @ApiOperation({ summary: 'The offers among these codes the caller may see (others are left out)' })
  @ApiOkResponse({ type: [OfferDto] })
  byIdList(@CurrentUser() user: AuthUser, @Body() dto: OfferCodesDto, @Query() query: LangQueryDto): Promise<OfferDto[]> {
    return this.offers.byCodes(user, dto.codes, query.lang);
  }

  @Get('offers/:code')
  @ApiOperation({ summary: 'One offer by its code (provider, customer, moderators in scope; others 404)' })
  @ApiOkResponse({ type: OfferDto })
  byCode(@CurrentUser() user: AuthUser, @Param('code', CodeParamPipe) code: string, @Query() query: LangQueryDto): Promise<OfferDto> {
    return this.offers.get(user, null, code, query.lang);
  }

  @Get(':jobId/offers')
  @ApiOperation({ summary: "A job's offers: all for its customer and moderators, the caller's own for a provider" })
  @ApiOkResponse({ type: OfferPageDto })
  list(@CurrentUser() user: AuthUser, @Param('jobId', CodeParamPipe) jobId: string, @Query() query: OfferListQueryDto): Promise<OfferPageDto> {
    return this.offers.listForJob(user, jobId, query);
  }

  @Post(':jobId/offers')
  @RateLimitedPerUser('offer-create')
  @ApiOperation({
    summary: 'Makes an offer on a job, with its chat: Initial, or a Proposal when price and deadline come with it; one open offer per provider and job (409)',
  })
  @ApiCreatedResponse({ type: OfferDto })
  create(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Body() dto: CreateOfferDto,
    @Query() query: LangQueryDto,
  ): Promise<OfferDto> {
    return this.offers.create(user, jobId, dto, query.lang);
  }

  @Get(':jobId/offers/:offerId')
  @ApiOperation({ summary: 'One offer of a job' })
  @ApiOkResponse({ type: OfferDto })
  get(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Query() query: LangQueryDto,
  ): Promise<OfferDto> {
    return this.offers.get(user, jobId, offerId, query.lang);
  }

  @Get(':jobId/offers/:offerId/events')
  @ApiOperation({ summary: "An offer's history, oldest first: its creation and every move, with actor and time" })
  @ApiOkResponse({ type: [OfferEventDto] })
  events(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
  ): Promise<OfferEventDto[]> {
    return this.offers.history(user, jobId, offerId);
  }

  @Put(':jobId/offers/:offerId')
  @RateLimitedPerUser('offer-revise')
  @Move('Provider: sets price and deadline (Initial → Proposal) or revises them (Proposal → Proposal)')
  update(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Body() dto: UpdateOfferDto,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<OfferDto> {
    return this.transitions.update(user, req(jobId, offerId, query, key), dto);
  }

  @Post(':jobId/offers/:offerId/final')
  @Move('Provider: locks the proposal as the final offer (Proposal → FinalOffer) and posts FinalJobOfferRequest')
  final(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<OfferDto> {
    return this.transitions.simple(user, req(jobId, offerId, query, key), 'final');
  }

  @Post(':jobId/offers/:offerId/choose')
  @Move('Customer: chooses the final offer (FinalOffer → CustomerApproved), posts JobOfferApproved; allowForMoreOffers false closes the others')
  choose(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Body() dto: ChooseOfferDto,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<OfferDto> {
    return this.transitions.choose(user, req(jobId, offerId, query, key), dto);
  }

  @Post(':jobId/offers/:offerId/reapprove')
  @Move('Provider: confirms the chosen offer (CustomerApproved → Agreed)')
  reapprove(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<OfferDto> {
    return this.transitions.simple(user, req(jobId, offerId, query, key), 'reapprove');
  }

  @Post(':jobId/offers/:offerId/finalizeRequest')
  @Move('Provider: the work is done (Agreed → FinalizeRequested)')
  finalizeRequest(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<OfferDto> {
    return this.transitions.simple(user, req(jobId, offerId, query, key), 'finalizeRequest');
  }

  @Put(':jobId/offers/:offerId/ApproveFinalizeRequest')
  @Move('Customer: accepts the work (FinalizeRequested → PaymentPending)')
  approveFinalizeRequest(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<OfferDto> {
    return this.transitions.simple(user, req(jobId, offerId, query, key), 'approveFinalizeRequest');
  }

  @Post(':jobId/offers/:offerId/pay')
  @Move(
    'Customer: pays the agreed price through a payment provider (PaymentPending → PaymentDeclared, a manual payment waits for the provider to confirm it; → Closed when the provider took the money at once); a repeated Idempotency-Key never charges twice',
    PayResultDto,
  )
  pay(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Body() dto: PayOfferDto,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<PayResultDto> {
    return this.transitions.pay(user, req(jobId, offerId, query, key), dto);
  }

  @Post(':jobId/offers/:offerId/confirmPayment')
  @Move("Provider: the customer's declared payment arrived (PaymentDeclared → Closed); the payment succeeds", PayResultDto)
  confirmPayment(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<PayResultDto> {
    return this.transitions.settleDeclared(user, req(jobId, offerId, query, key), 'confirmPayment');
  }

  @Post(':jobId/offers/:offerId/disputePayment')
  @Move("Provider: the customer's declared payment has not arrived (PaymentDeclared → PaymentPending); the payment is disputed", PayResultDto)
  disputePayment(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<PayResultDto> {
    return this.transitions.settleDeclared(user, req(jobId, offerId, query, key), 'disputePayment');
  }

  @Post(':jobId/offers/:offerId/withdraw')
  @RateLimitedPerUser('offer-withdraw')
  @Move('Provider: withdraws the offer before it is agreed (→ Closed)')
  withdraw(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<OfferDto> {
    return this.transitions.simple(user, req(jobId, offerId, query, key), 'withdraw');
  }

  @Post(':jobId/offers/:offerId/reject')
  @Move('Customer: rejects the offer before it is agreed (→ Closed)')
  reject(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobId: string,
    @Param('offerId', CodeParamPipe) offerId: string,
    @Query() query: LangQueryDto,
    @Headers('idempotency-key') key?: string,
  ): Promise<OfferDto> {
    return this.transitions.simple(user, req(jobId, offerId, query, key), 'reject');
  }
}

function req(jobCode: string, offerCode: string, query: LangQueryDto, key: string | undefined): MoveRequest {
  return { jobCode, offerCode, lang: query.lang, idempotencyKey: IdempotencyStore.parse(key) };
}
