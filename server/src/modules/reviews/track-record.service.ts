import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { AuthUser } from '#shared/contracts/auth';
import { isGlobalRole } from '#shared/contracts/roles';
import { pageOf } from '../../common/dto/page-query.dto';
import { notFound } from '../../common/errors';
import { REVIEW_PAGE_SIZE, ReviewSettingsResponseDto, TrackRecordDto, UserReviewPageDto, UserReviewQueryDto } from './dto/review.dto';
import { ReviewClock } from './review-clock';
import { mapReview } from './review.mapper';
import { ReviewsRepository } from './reviews.repository';
import { TrackRecordRepository } from './track-record.repository';

/** What a profile and a deal's header show about a person: rating, reviews, completed deals, usual reply time. */
@Injectable()
export class TrackRecordService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reviews: ReviewsRepository,
    private readonly records: TrackRecordRepository,
    private readonly clock: ReviewClock,
  ) {}

  async trackRecord(viewer: AuthUser, code: string): Promise<TrackRecordDto> {
    const user = await this.visibleUser(viewer, code);
    const [rating, completedDeals, replySeconds] = await Promise.all([
      this.reviews.ratingOf(user.id, this.clock.now()),
      this.records.completedDeals(user.id),
      this.records.replySeconds(user.id),
    ]);
    return { userCode: user.code, ...rating, completedDeals, replySeconds };
  }

  async reviewsAbout(viewer: AuthUser, code: string, query: UserReviewQueryDto): Promise<UserReviewPageDto> {
    const user = await this.visibleUser(viewer, code);
    const { page, pageSize } = pageOf(query, REVIEW_PAGE_SIZE);
    const now = this.clock.now();
    const rows = await this.reviews.publicAbout(user.id, now, (page - 1) * pageSize, pageSize + 1);
    return { reviews: rows.slice(0, pageSize).map((r) => mapReview(r, now)), page, pageSize, hasMore: rows.length > pageSize };
  }

  async settings(viewer: AuthUser): Promise<ReviewSettingsResponseDto> {
    const own = await this.reviews.instanceWindowDays(viewer.instanceId);
    return { windowDays: own ?? this.config.REVIEW_WINDOW_DAYS, isDefault: own === null };
  }

  /** The caller's instance's window, for deals whose first review comes after the change. */
  async setWindowDays(viewer: AuthUser, days: number): Promise<ReviewSettingsResponseDto> {
    await this.reviews.setInstanceWindowDays(viewer.instanceId, days);
    return this.settings(viewer);
  }

  /** As GET /api/user/{code}: 404 also for a user of another instance. */
  private async visibleUser(viewer: AuthUser, code: string): Promise<{ id: string; code: string }> {
    const user = await this.records.visibleUser(code, isGlobalRole(viewer.role) ? null : viewer.instanceId);
    if (!user) throw notFound();
    return user;
  }
}
