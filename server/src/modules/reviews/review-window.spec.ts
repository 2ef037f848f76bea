import { publicSince, windowEnd } from './review-window';

describe('review window', () => {
  const closed = new Date('2026-01-01T10:00:00Z');
  const ends = windowEnd(closed, 14);

  it('ends the given days after the deal closed', () => {
    expect(ends.toISOString()).toBe('2026-01-15T10:00:00.000Z');
  });

  it('keeps a review hidden until the window ends, then public from the window end on', () => {
    const review = { published_at: null, window_ends_at: ends };
    expect(publicSince(review, new Date(ends.getTime() - 1))).toBeNull();
    expect(publicSince(review, ends)).toEqual(ends);
    expect(publicSince(review, new Date('2026-03-01T00:00:00Z'))).toEqual(ends);
  });

  it('makes a review published by both parties public at that time, window or not', () => {
    const at = new Date('2026-01-03T00:00:00Z');
    expect(publicSince({ published_at: at, window_ends_at: ends }, closed)).toEqual(at);
  });
});
