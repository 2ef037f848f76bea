const DAY_MS = 86_400_000;

/** The end of a deal's review window: its closing time plus the window's days. */
export const windowEnd = (closedAt: Date, days: number): Date => new Date(closedAt.getTime() + days * DAY_MS);

/** A review is public once both parties wrote (published) or its window has ended, whichever comes first. */
export function publicSince(review: { published_at: Date | null; window_ends_at: Date }, now: Date): Date | null {
  if (review.published_at) return review.published_at;
  return review.window_ends_at.getTime() <= now.getTime() ? review.window_ends_at : null;
}
