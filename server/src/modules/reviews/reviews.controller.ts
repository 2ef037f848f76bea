import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthUser } from '#shared/contracts/auth';
import { Role } from '#shared/contracts/roles';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { RequireAnyRole } from '../../common/decorators/roles.decorator';
import { CodeParamPipe } from '../../common/pipes';
import {
  OfferReviewsDto,
  ReplyDto,
  ReviewDto,
  ReviewSettingsDto,
  ReviewSettingsResponseDto,
  TrackRecordDto,
  UserReviewPageDto,
  UserReviewQueryDto,
  WriteReviewDto,
} from './dto/review.dto';
import { OfferReviewsService } from './offer-reviews.service';
import { TrackRecordService } from './track-record.service';

@ApiTags('reviews')
@ApiBearerAuth()
@Controller()
export class ReviewsController {
  constructor(
    private readonly reviews: OfferReviewsService,
    private readonly records: TrackRecordService,
  ) {}

  @Get('jobs/:jobId/offers/:offerId/reviews')
  @ApiOperation({ summary: "The deal's reviews as the caller may see them (parties and moderators in scope; others 404)" })
  @ApiOkResponse({ type: OfferReviewsDto })
  forOffer(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobCode: string,
    @Param('offerId', CodeParamPipe) offerCode: string,
  ): Promise<OfferReviewsDto> {
    return this.reviews.forOffer(user, jobCode, offerCode);
  }

  @Post('jobs/:jobId/offers/:offerId/reviews')
  @ApiOperation({ summary: "A party's one review of the other, after the deal closed with a settled payment, within the window" })
  @ApiCreatedResponse({ type: ReviewDto })
  @ApiConflictResponse({ description: 'REVIEW.NOT_CLOSED, REVIEW.NO_DEAL, REVIEW.WINDOW_ENDED or REVIEW.ALREADY_WRITTEN' })
  write(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobCode: string,
    @Param('offerId', CodeParamPipe) offerCode: string,
    @Body() dto: WriteReviewDto,
  ): Promise<ReviewDto> {
    return this.reviews.write(user, jobCode, offerCode, dto);
  }

  @Put('jobs/:jobId/offers/:offerId/reviews/mine')
  @ApiOperation({ summary: "The author's change to their review while it is hidden; 409 REVIEW.PUBLISHED after" })
  @ApiOkResponse({ type: ReviewDto })
  rewrite(
    @CurrentUser() user: AuthUser,
    @Param('jobId', CodeParamPipe) jobCode: string,
    @Param('offerId', CodeParamPipe) offerCode: string,
    @Body() dto: WriteReviewDto,
  ): Promise<ReviewDto> {
    return this.reviews.rewrite(user, jobCode, offerCode, dto);
  }

  @Post('reviews/:code/reply')
  @HttpCode(200)
  @ApiOperation({ summary: "The reviewed party's one public reply to a published review about them" })
  @ApiOkResponse({ type: ReviewDto })
  reply(@CurrentUser() user: AuthUser, @Param('code', CodeParamPipe) code: string, @Body() dto: ReplyDto): Promise<ReviewDto> {
    return this.reviews.reply(user, code, dto);
  }

  @Get('reviews/settings')
  @RequireAnyRole(Role.InstanceAdmin, Role.GlobalAdmin)
  @ApiOperation({ summary: "The review window of the caller's instance" })
  @ApiOkResponse({ type: ReviewSettingsResponseDto })
  settings(@CurrentUser() user: AuthUser): Promise<ReviewSettingsResponseDto> {
    return this.records.settings(user);
  }

  @Put('reviews/settings')
  @RequireAnyRole(Role.InstanceAdmin, Role.GlobalAdmin)
  @ApiOperation({ summary: "Sets the caller's instance's review window (days); deals already reviewed keep theirs" })
  @ApiOkResponse({ type: ReviewSettingsResponseDto })
  setSettings(@CurrentUser() user: AuthUser, @Body() dto: ReviewSettingsDto): Promise<ReviewSettingsResponseDto> {
    return this.records.setWindowDays(user, dto.windowDays);
  }

  @Get('user/:id/track-record')
  @ApiOperation({ summary: "A user's published rating, review count, completed deals and usual reply time" })
  @ApiOkResponse({ type: TrackRecordDto })
  trackRecord(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) code: string): Promise<TrackRecordDto> {
    return this.records.trackRecord(user, code);
  }

  @Get('user/:id/reviews')
  @ApiOperation({ summary: 'The published reviews about a user, latest first' })
  @ApiOkResponse({ type: UserReviewPageDto })
  reviewsAbout(@CurrentUser() user: AuthUser, @Param('id', CodeParamPipe) code: string, @Query() query: UserReviewQueryDto): Promise<UserReviewPageDto> {
    return this.records.reviewsAbout(user, code, query);
  }
}
