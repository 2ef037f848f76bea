import { Module } from '@nestjs/common';
import { ChatAccessModule } from '../chat/chat-access.module';
import { ChatModule } from '../chat/chat.module';
import { MarketplaceModule } from '../marketplace/marketplace.module';
import { OfferReviewsService } from './offer-reviews.service';
import { ReviewClock } from './review-clock';
import { ReviewsController } from './reviews.controller';
import { ReviewsRepository } from './reviews.repository';
import { TrackRecordRepository } from './track-record.repository';
import { TrackRecordService } from './track-record.service';

/** Two-sided reviews of closed deals, and the track record (rating, deals, reply time) profiles and deal headers show. */
@Module({
  imports: [ChatModule, ChatAccessModule, MarketplaceModule],
  controllers: [ReviewsController],
  providers: [ReviewClock, ReviewsRepository, TrackRecordRepository, OfferReviewsService, TrackRecordService],
})
export class ReviewsModule {}
