import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { OfferListQueryDto, OfferPageDto, PartyPaymentPageDto } from './dto/offer.dto';
import { OffersService } from './offers.service';

@ApiTags('offers')
@ApiBearerAuth()
@Controller('job-offers')
export class JobOffersController {
  constructor(private readonly offers: OffersService) {}

  @Get()
  @ApiOperation({ summary: "The caller's offers on either side (as provider or as the job's customer), latest change first" })
  @ApiOkResponse({ type: OfferPageDto })
  mine(@CurrentUser() user: AuthUser, @Query() query: OfferListQueryDto): Promise<OfferPageDto> {
    return this.offers.listMine(user, query);
  }

  @Get('for-payment')
  @ApiOperation({ summary: "The caller's offers as a customer that wait for payment (PaymentPending)" })
  @ApiOkResponse({ type: OfferPageDto })
  forPayment(@CurrentUser() user: AuthUser, @Query() query: OfferListQueryDto): Promise<OfferPageDto> {
    return this.offers.listMine(user, query, true);
  }

  @Get('payments')
  @ApiOperation({ summary: 'Payments the caller made (as customer) or received (as provider), newest first, with offer, job title and the other party' })
  @ApiOkResponse({ type: PartyPaymentPageDto })
  payments(@CurrentUser() user: AuthUser, @Query() query: OfferListQueryDto): Promise<PartyPaymentPageDto> {
    return this.offers.payments(user, query);
  }
}
