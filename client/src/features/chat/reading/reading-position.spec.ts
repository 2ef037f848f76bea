import { firstUnreadIndex, newBelow, titleWithUnread } from './reading-position';

const msg = (seq: number, userCode: string | null) => ({ seq, userCode });

describe('firstUnreadIndex (the new messages divider)', () => {
  const thread = [msg(1, 'ME'), msg(2, 'BOB'), msg(3, 'BOB'), msg(4, 'ME'), msg(5, 'BOB'), msg(6, 'CY')];

  it('sits on the first message by someone else after the read marker', () => {
    expect(firstUnreadIndex(thread, { readSeq: 2, unread: null }, 'ME')).toBe(2);
    // My own message after the marker is not unread.
    expect(firstUnreadIndex(thread, { readSeq: 3, unread: null }, 'ME')).toBe(4);
  });

  it('is absent when everything was read', () => {
    expect(firstUnreadIndex(thread, { readSeq: 6, unread: 0 }, 'ME')).toBe(-1);
    expect(firstUnreadIndex(thread, { readSeq: null, unread: 0 }, 'ME')).toBe(-1);
    expect(firstUnreadIndex([], { readSeq: 0, unread: null }, 'ME')).toBe(-1);
  });

  it('counts the unread messages back from the newest without a marker', () => {
    expect(firstUnreadIndex(thread, { readSeq: null, unread: 2 }, 'ME')).toBe(4);
    expect(firstUnreadIndex(thread, { readSeq: null, unread: 3 }, 'ME')).toBe(2);
    // More unread than loaded: the oldest loaded message by someone else.
    expect(firstUnreadIndex(thread, { readSeq: null, unread: 40 }, 'ME')).toBe(1);
  });

  it('never points at a message still being sent', () => {
    expect(firstUnreadIndex([msg(1, 'BOB'), msg(0, 'BOB')], { readSeq: 1, unread: null }, 'ME')).toBe(-1);
  });
});

describe('newBelow (the jump button)', () => {
  it('counts the messages after the last one seen at the bottom', () => {
    expect(newBelow(['a', 'b', 'c'], 'c')).toBe(0);
    expect(newBelow(['a', 'b', 'c', 'd', 'e'], 'c')).toBe(2);
  });

  it('counts nothing before the reader has seen anything, or for a key no longer listed', () => {
    expect(newBelow(['a', 'b'], null)).toBe(0);
    expect(newBelow(['a', 'b'], 'zz')).toBe(0);
  });
});

describe('titleWithUnread', () => {
  it('puts the unread total before the name', () => {
    expect(titleWithUnread('Parley', 3)).toBe('(3) Parley');
    expect(titleWithUnread('Parley', 0)).toBe('Parley');
    expect(titleWithUnread('Parley', 120)).toBe('(99+) Parley');
  });
});
