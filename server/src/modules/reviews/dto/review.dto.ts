import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { PageQueryDto } from '../../../common/dto/page-query.dto';
import { OfferEventActorDto as PersonDto } from '../../marketplace/dto/offer.dto';
import {
  OfferReviewsResponse,
  REVIEW_RATING_MAX,
  REVIEW_RATING_MIN,
  REVIEW_TEXT_MAX_LENGTH,
  ReviewAuthorRole,
  ReviewReplyResponse,
  ReviewResponse,
  ReviewSettingsResponse,
  TrackRecordResponse,
  UserReviewPageResponse,
} from '#shared/contracts/rest/reviews';

export const REVIEW_PAGE_SIZE = 20;

/** Text with something besides white space in it. Broken rule: VALIDATION.<FIELD>.IS_NOT_BLANK. */
const IsNotBlank = () => ValidateBy({ name: 'isNotBlank', validator: { validate: (v: unknown) => typeof v === 'string' && /\S/.test(v) } });

export class WriteReviewDto {
  @ApiProperty({ minimum: REVIEW_RATING_MIN, maximum: REVIEW_RATING_MAX, description: 'whole stars' })
  @IsInt()
  @Min(REVIEW_RATING_MIN)
  @Max(REVIEW_RATING_MAX)
  rating: number;

  @ApiProperty({ maxLength: REVIEW_TEXT_MAX_LENGTH })
  @IsString()
  @IsNotBlank()
  @MaxLength(REVIEW_TEXT_MAX_LENGTH)
  text: string;
}

export class ReplyDto {
  @ApiProperty({ maxLength: REVIEW_TEXT_MAX_LENGTH })
  @IsString()
  @IsNotBlank()
  @MaxLength(REVIEW_TEXT_MAX_LENGTH)
  text: string;
}

export class ReviewSettingsDto {
  @ApiProperty({ minimum: 1, maximum: 90, description: 'days after a deal closes during which its parties may review each other' })
  @IsInt()
  @Min(1)
  @Max(90)
  windowDays: number;
}

export class UserReviewQueryDto extends PageQueryDto(50, REVIEW_PAGE_SIZE) {}

export class ReviewReplyDto implements ReviewReplyResponse {
  @ApiProperty() text: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class ReviewDto implements ReviewResponse {
  @ApiProperty() code: string;
  @ApiProperty() offerCode: string;
  @ApiProperty() jobCode: string;
  @ApiProperty({ minimum: REVIEW_RATING_MIN, maximum: REVIEW_RATING_MAX }) rating: number;
  @ApiProperty() text: string;
  @ApiProperty({ enum: ['provider', 'customer'] }) authorRole: ReviewAuthorRole;
  @ApiProperty({ type: PersonDto }) author: PersonDto;
  @ApiProperty({ type: PersonDto }) subject: PersonDto;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) publishedAt: string | null;
  @ApiPropertyOptional({ type: ReviewReplyDto, nullable: true }) reply: ReviewReplyDto | null;
}

export class OfferReviewsDto implements OfferReviewsResponse {
  @ApiProperty() canWrite: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) windowEndsAt: string | null;
  @ApiProperty() published: boolean;
  @ApiProperty({ type: ReviewDto, nullable: true }) mine: ReviewDto | null;
  @ApiProperty({ type: [ReviewDto] }) others: ReviewDto[];
  @ApiProperty() otherWritten: boolean;
}

export class TrackRecordDto implements TrackRecordResponse {
  @ApiProperty() userCode: string;
  @ApiProperty({ type: Number, nullable: true }) average: number | null;
  @ApiProperty() count: number;
  @ApiProperty() completedDeals: number;
  @ApiProperty({ type: Number, nullable: true }) replySeconds: number | null;
}

export class UserReviewPageDto implements UserReviewPageResponse {
  @ApiProperty({ type: [ReviewDto] }) reviews: ReviewDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}

export class ReviewSettingsResponseDto implements ReviewSettingsResponse {
  @ApiProperty() windowDays: number;
  @ApiProperty() isDefault: boolean;
}
