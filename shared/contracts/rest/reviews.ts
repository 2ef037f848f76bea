import type { PersonResponse } from './marketplace';

/** Ratings are whole stars. */
export const REVIEW_RATING_MIN = 1;
export const REVIEW_RATING_MAX = 5;
/** A review's text and a reply's, in characters after trimming. */
export const REVIEW_TEXT_MAX_LENGTH = 2000;

export type ReviewAuthorRole = 'provider' | 'customer';

/** The reviewed party's one public answer. */
export interface ReviewReplyResponse {
  text: string;
  at: string;
}

/** One review of a deal: `author` about `subject`. */
export interface ReviewResponse {
  code: string;
  offerCode: string;
  jobCode: string;
  rating: number;
  text: string;
  /** the author's side of the deal */
  authorRole: ReviewAuthorRole;
  author: PersonResponse;
  subject: PersonResponse;
  createdAt: string;
  /** null while the review is hidden from everyone but its author */
  publishedAt: string | null;
  reply: ReviewReplyResponse | null;
}

/** GET /api/jobs/{jobCode}/offers/{offerCode}/reviews: the deal's reviews as the caller may see them. */
export interface OfferReviewsResponse {
  /** the caller may write their review now */
  canWrite: boolean;
  /** when the window closes (the offer's closing time plus the instance's days); null before the deal closed */
  windowEndsAt: string | null;
  /** the reviews are public: both wrote, or the window ended */
  published: boolean;
  /** the caller's own review (a party's); null for moderators or before writing */
  mine: ReviewResponse | null;
  /** the other party's review, once published; for a moderator, both published ones */
  others: ReviewResponse[];
  /** the other party has written a review that is still hidden */
  otherWritten: boolean;
}

/** GET /api/user/{code}/track-record: what the other party of a deal sees about someone. */
export interface TrackRecordResponse {
  userCode: string;
  /** mean of the published ratings about the user; null without any */
  average: number | null;
  count: number;
  /** offers the user took part in that closed with a settled payment */
  completedDeals: number;
  /** median seconds the user takes to answer someone else's message in their recent chats; null with too few answers */
  replySeconds: number | null;
}

/** GET /api/user/{code}/reviews: the published reviews about a user, newest first. */
export interface UserReviewPageResponse {
  reviews: ReviewResponse[];
  page: number;
  pageSize: number;
  hasMore: boolean;
}

/** GET/PUT /api/reviews/settings: the caller's instance's review window. */
export interface ReviewSettingsResponse {
  windowDays: number;
  /** the window is the configured default (REVIEW_WINDOW_DAYS), not the instance's own */
  isDefault: boolean;
}
