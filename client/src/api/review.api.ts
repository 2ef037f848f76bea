import type { OfferReviewsResponse, ReviewResponse, ReviewSettingsResponse, TrackRecordResponse, UserReviewPageResponse } from '@contracts/rest/reviews';
import { http } from './http';

export type Review = ReviewResponse;
export type OfferReviews = OfferReviewsResponse;
export type TrackRecord = TrackRecordResponse;
export type UserReviewPage = UserReviewPageResponse;
export type ReviewSettings = ReviewSettingsResponse;
export { REVIEW_RATING_MAX, REVIEW_TEXT_MAX_LENGTH } from '@contracts/rest/reviews';

export interface ReviewInput {
  rating: number;
  text: string;
}

const enc = encodeURIComponent;
const offerReviewsUrl = (jobCode: string, offerCode: string) => `/api/jobs/${enc(jobCode)}/offers/${enc(offerCode)}/reviews`;

/** Reviews change when either party writes: never cached. Writes go through the one error handler (409, 422). */
export const reviewApi = {
  ofOffer: (jobCode: string, offerCode: string) => http.get<OfferReviews>(offerReviewsUrl(jobCode, offerCode), { cache: false, handleErrors: false }),
  write: (jobCode: string, offerCode: string, body: ReviewInput) => http.post<Review>(offerReviewsUrl(jobCode, offerCode), body),
  rewrite: (jobCode: string, offerCode: string, body: ReviewInput) => http.put<Review>(`${offerReviewsUrl(jobCode, offerCode)}/mine`, body),
  reply: (reviewCode: string, text: string) => http.post<Review>(`/api/reviews/${enc(reviewCode)}/reply`, { text }),
  trackRecord: (userCode: string) => http.get<TrackRecord>(`/api/user/${enc(userCode)}/track-record`, { cache: false, handleErrors: false }),
  about: (userCode: string, page = 1) => http.get<UserReviewPage>(`/api/user/${enc(userCode)}/reviews?page=${page}`, { cache: false, handleErrors: false }),
};
