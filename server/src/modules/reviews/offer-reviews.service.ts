import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { AuthUser } from '#shared/contracts/auth';
import { ChatMessageType } from '#shared/contracts/chat';
import { OfferStatus } from '#shared/contracts/offers';
import { isGlobalRole } from '#shared/contracts/roles';
import { newCode } from '../../common/codes';
import { conflict, forbidden, notFound } from '../../common/errors';
import { ChatGroupsRepository } from '../chat/chat-groups.repository';
import { ChatMessagesService } from '../chat/chat-messages.service';
import { partyOf } from '../marketplace/marketplace-access';
import { OffersService } from '../marketplace/offers.service';
import { OfferRow } from '../marketplace/offers.repository';
import { OfferReviewsDto, ReplyDto, ReviewDto, WriteReviewDto } from './dto/review.dto';
import { ReviewClock } from './review-clock';
import { mapReview } from './review.mapper';
import { publicSince, windowEnd } from './review-window';
import { DealFacts, ReviewRow, ReviewsRepository } from './reviews.repository';

/** The offer note that records the reviews' publication in the deal's chat (an offer note: told by its mark, not its text). */
export const REVIEWS_PUBLISHED_NOTE = 'REVIEW.MESSAGE.PUBLISHED';

/**
 * Two-sided, double-blind reviews of a closed deal. Each party writes one review of the other within the
 * window (the offer's closing time plus the instance's days); each sees only their own until both wrote or the
 * window ended, which publishes them. Publication at the window's end needs no job: whoever reads decides by the
 * clock, and the first read of the deal's reviews after it stamps them and posts the chat note once.
 */
@Injectable()
export class OfferReviewsService {
  private readonly logger = new Logger(OfferReviewsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reviews: ReviewsRepository,
    private readonly offers: OffersService,
    private readonly groups: ChatGroupsRepository,
    private readonly messages: ChatMessagesService,
    private readonly clock: ReviewClock,
  ) {}

  /** The deal's reviews as the caller may see them: their own, and the other's once public. */
  async forOffer(user: AuthUser, jobCode: string, offerCode: string): Promise<OfferReviewsDto> {
    const offer = await this.offers.visible(user, jobCode, offerCode);
    const now = this.clock.now();
    let rows = await this.reviews.forOffer(offer.id);
    if (rows.some((r) => !r.published_at && publicSince(r, now)) && (await this.reviews.stampEndedWindow(offer.id, now)) > 0) {
      await this.notePublished(offer, rows[rows.length - 1].author_id);
      rows = await this.reviews.forOffer(offer.id);
    }
    const deal = offer.status === OfferStatus.Closed ? await this.reviews.dealFacts(offer.id) : null;
    const ends = rows[0]?.window_ends_at ?? (deal?.settled && deal.closedAt ? windowEnd(deal.closedAt, this.windowDays(deal)) : null);
    const mine = rows.find((r) => r.author_id === user.id) ?? null;
    const others = rows.filter((r) => r.author_id !== user.id);
    return {
      canWrite: partyOf(user, offer) !== null && !mine && !!ends && now < ends,
      windowEndsAt: ends?.toISOString() ?? null,
      published: rows.length > 0 && rows.every((r) => publicSince(r, now)),
      mine: mine && mapReview(mine, now),
      others: others.filter((r) => publicSince(r, now)).map((r) => mapReview(r, now)),
      otherWritten: others.some((r) => !publicSince(r, now)),
    };
  }

  /** A party's one review of the other, on a deal that closed with a settled payment, within the window. */
  async write(user: AuthUser, jobCode: string, offerCode: string, dto: WriteReviewDto): Promise<ReviewDto> {
    const offer = await this.offers.visible(user, jobCode, offerCode);
    const side = partyOf(user, offer);
    if (!side) throw forbidden('REVIEW.NOT_A_PARTY');
    if (offer.status !== OfferStatus.Closed) throw conflict('REVIEW.NOT_CLOSED');
    const now = this.clock.now();
    const code = newCode();
    const published = await this.db.transaction(async (tx) => {
      await this.reviews.lockOffer(tx, offer.id);
      const deal = await this.reviews.dealFacts(offer.id, tx);
      if (!deal.settled || !deal.closedAt) throw conflict('REVIEW.NO_DEAL');
      const existing = await this.reviews.forOffer(offer.id, tx);
      if (existing.some((r) => r.author_id === user.id)) throw conflict('REVIEW.ALREADY_WRITTEN');
      // The window is fixed by the deal's first review: a later change of the instance's setting does not move it.
      const ends = existing[0]?.window_ends_at ?? windowEnd(deal.closedAt, this.windowDays(deal));
      if (now >= ends) throw conflict('REVIEW.WINDOW_ENDED');
      const id = await this.reviews.insert(tx, {
        code,
        offerId: offer.id,
        authorId: user.id,
        subjectId: side === 'provider' ? offer.customer_id : offer.provider_id,
        authorRole: side,
        rating: dto.rating,
        text: dto.text.trim(),
        at: now,
        windowEndsAt: ends,
      });
      if (!id) throw conflict('REVIEW.ALREADY_WRITTEN');
      return existing.length === 1 && (await this.reviews.publish(tx, offer.id, now)) > 0;
    });
    if (published) await this.notePublished(offer, user.id);
    return mapReview((await this.reviews.byCode(code))!, now);
  }

  /** The author changes their review while it is still hidden; once published it stays as it is. */
  async rewrite(user: AuthUser, jobCode: string, offerCode: string, dto: WriteReviewDto): Promise<ReviewDto> {
    const offer = await this.offers.visible(user, jobCode, offerCode);
    const now = this.clock.now();
    const code = await this.db.transaction(async (tx) => {
      await this.reviews.lockOffer(tx, offer.id);
      const mine = (await this.reviews.forOffer(offer.id, tx)).find((r) => r.author_id === user.id);
      if (!mine) throw notFound('REVIEW.NOT_FOUND');
      if (!(await this.reviews.rewrite(tx, mine.id, dto.rating, dto.text.trim(), now))) throw conflict('REVIEW.PUBLISHED');
      return mine.code;
    });
    return mapReview((await this.reviews.byCode(code))!, now);
  }

  /** The reviewed party's one public reply to a published review about them. */
  async reply(user: AuthUser, reviewCode: string, dto: ReplyDto): Promise<ReviewDto> {
    const review = await this.reviews.byCode(reviewCode);
    const now = this.clock.now();
    if (!review || !this.sees(user, review, now)) throw notFound('REVIEW.NOT_FOUND');
    if (review.author_id === user.id) throw forbidden('REVIEW.OWN_REVIEW');
    if (review.subject_id !== user.id) throw forbidden('REVIEW.NOT_ABOUT_YOU');
    if (!(await this.reviews.reply(review.id, dto.text.trim(), now))) throw conflict('REVIEW.ALREADY_REPLIED');
    return mapReview((await this.reviews.byCode(reviewCode))!, now);
  }

  /** Its author sees a review always; everyone of its instance (and global roles) once it is public. */
  private sees(user: AuthUser, review: ReviewRow, now: Date): boolean {
    if (review.author_id === user.id) return true;
    return !!publicSince(review, now) && (review.instance_id === user.instanceId || isGlobalRole(user.role));
  }

  private windowDays(deal: DealFacts): number {
    return deal.windowDays ?? this.config.REVIEW_WINDOW_DAYS;
  }

  /** After commit: the deal's chat records the publication, like a move, authored by the party whose review completed it. */
  private async notePublished(offer: OfferRow, authorId: string): Promise<void> {
    try {
      const group = offer.group_code ? await this.groups.findByCode(offer.group_code) : null;
      if (group) await this.messages.postOfferNote(group, ChatMessageType.Text, REVIEWS_PUBLISHED_NOTE, authorId, { status: offer.status });
    } catch (err) {
      // The reviews are published; a lost chat note must not turn that into an error.
      this.logger.error({ err, offer: offer.code }, 'reviews chat note failed');
    }
  }
}
