import { UNREAD_COUNT_PACKET, UnreadCountCoalescer } from './unread-count-coalescer';

const packet = (total: number, groups: Record<string, number>) => `${UNREAD_COUNT_PACKET}${JSON.stringify({ total, groups })}]`;

describe('UnreadCountCoalescer', () => {
  it('writes the first count at once and merges the rest of its window, newest total and each group newest', () => {
    const c = new UnreadCountCoalescer();
    expect(c.offer('user:a', packet(1, { g: 1 }))).toBe(packet(1, { g: 1 }));
    expect(c.offer('user:a', packet(2, { g: 2 }))).toBeNull();
    expect(c.offer('user:a', packet(3, { h: 1 }))).toBeNull();
    expect(c.offer('user:b', packet(7, { g: 7 }))).toBe(packet(7, { g: 7 }));
    expect(c.closeWindows()).toEqual([['user:a', packet(3, { g: 2, h: 1 })]]);
  });

  it('keeps a window open after writing its merge, and closes one that stayed quiet', () => {
    const c = new UnreadCountCoalescer();
    c.offer('user:a', packet(1, { g: 1 }));
    c.offer('user:a', packet(2, { g: 2 }));
    expect(c.closeWindows()).toHaveLength(1);
    expect(c.offer('user:a', packet(0, { g: 0 }))).toBeNull();
    expect(c.closeWindows()).toEqual([['user:a', packet(0, { g: 0 })]]);
    expect(c.closeWindows()).toEqual([]);
    expect(c.offer('user:a', packet(1, { g: 1 }))).toBe(packet(1, { g: 1 }));
  });
});
