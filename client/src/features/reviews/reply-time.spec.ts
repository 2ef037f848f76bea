import { formatAverage, replyTimeLabel } from './reply-time';

describe('reply time in words', () => {
  it('rounds up to minutes, hours or days', () => {
    expect(replyTimeLabel(0)).toEqual({ key: 'REVIEWS.REPLY_MINUTES', count: 1 });
    expect(replyTimeLabel(125)).toEqual({ key: 'REVIEWS.REPLY_MINUTES', count: 3 });
    expect(replyTimeLabel(3600)).toEqual({ key: 'REVIEWS.REPLY_HOURS', count: 1 });
    expect(replyTimeLabel(3601)).toEqual({ key: 'REVIEWS.REPLY_HOURS', count: 2 });
    expect(replyTimeLabel(86_400 * 2.5)).toEqual({ key: 'REVIEWS.REPLY_DAYS', count: 3 });
  });

  it('shows a mean rating with one decimal in the reader\u2019s language', () => {
    expect(formatAverage(4.5, 'en')).toBe('4.5');
    expect(formatAverage(4, 'pl')).toBe('4,0');
  });
});
