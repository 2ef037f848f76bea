import { anchorAt, prefixOffsets, rowAt, rowHeights, rowWindow, scrollTopFor } from './virtual-window';

describe('virtual window math', () => {
  const offsets = prefixOffsets([10, 20, 30, 40]);

  it('sums heights into row tops', () => {
    expect(offsets).toEqual([0, 10, 30, 60, 100]);
    expect(prefixOffsets([])).toEqual([0]);
  });

  it('finds the row under a point, clamped to the first and last', () => {
    expect([
      rowAt(offsets, -5),
      rowAt(offsets, 0),
      rowAt(offsets, 9.9),
      rowAt(offsets, 10),
      rowAt(offsets, 59),
      rowAt(offsets, 99),
      rowAt(offsets, 500),
    ]).toEqual([0, 0, 0, 1, 2, 3, 3]);
    expect(rowAt([0], 10)).toBe(-1);
  });

  it('renders the rows that meet the viewport plus the overscan band, with spacers for the rest', () => {
    expect(rowWindow(offsets, 15, 20, 0)).toEqual({ start: 1, end: 3, before: 10, after: 40, total: 100 });
    expect(rowWindow(offsets, 15, 20, 10)).toEqual({ start: 0, end: 3, before: 0, after: 40, total: 100 });
    expect(rowWindow(offsets, 15, 20, 50)).toEqual({ start: 0, end: 4, before: 0, after: 0, total: 100 });
    expect(rowWindow([0], 0, 800, 100)).toEqual({ start: 0, end: 0, before: 0, after: 0, total: 0 });
  });

  it('keeps the window bounded for 10,000 rows wherever the viewport is', () => {
    const keys = Array.from({ length: 10_000 }, (_, i) => `m${i}`);
    const measured = new Map(keys.filter((_, i) => i % 3 === 0).map((k) => [k, 90] as [string, number]));
    const tops = prefixOffsets(rowHeights(keys, measured, 60));
    const total = tops[10_000];
    expect(total).toBe(3334 * 90 + 6666 * 60);
    for (const scrollTop of [0, total / 3, total / 2, total - 800]) {
      const w = rowWindow(tops, scrollTop, 800, 600);
      expect(w.end - w.start).toBeLessThanOrEqual(Math.ceil((800 + 1200) / 60) + 2);
      expect(w.before + (tops[w.end] - tops[w.start]) + w.after).toBe(total);
      expect(tops[w.start]).toBeLessThanOrEqual(Math.max(0, scrollTop - 600));
      expect(tops[w.end]).toBeGreaterThanOrEqual(Math.min(total, scrollTop + 800 + 600));
    }
    expect(rowWindow(tops, 0, 800, 600, 10).end).toBe(10);
  });

  it('uses the estimate for rows not measured yet (or measured at 0 px, without layout)', () => {
    expect(
      rowHeights(
        ['a', 'b', 'c'],
        new Map([
          ['a', 33],
          ['b', 0],
        ]),
        50,
      ),
    ).toEqual([33, 50, 50]);
  });

  it('keeps the first visible row in place when older rows are added above it', () => {
    const keys = ['c', 'd', 'e'];
    const before = prefixOffsets([50, 50, 50]);
    const anchor = anchorAt(before, keys, 70);
    // d is cut by the viewport's top: e, the first row that starts inside it, is the anchor.
    expect(anchor).toEqual({ key: 'e', delta: 30 });
    expect(anchorAt(before, keys, 50)).toEqual({ key: 'd', delta: 0 });
    expect(anchorAt(before, keys, 140)).toEqual({ key: 'e', delta: -40 });
    const grown = ['a', 'b', ...keys];
    const after = prefixOffsets([40, 60, 50, 80, 50]);
    const top = scrollTopFor(anchor!, after, new Map(grown.map((k, i) => [k, i])));
    // e now starts at 230 (d grew too); the reader still sees it 30 px below the viewport's top.
    expect(top).toBe(200);
    expect(scrollTopFor({ key: 'gone', delta: 0 }, after, new Map())).toBeNull();
  });

  it('keeps the row in place when a row above it is measured at a new height', () => {
    const keys = ['a', 'b', 'c'];
    const anchor = anchorAt(prefixOffsets([64, 64, 64]), keys, 100)!;
    expect(anchor).toEqual({ key: 'c', delta: 28 });
    expect(scrollTopFor(anchor, prefixOffsets([100, 64, 64]), new Map(keys.map((k, i) => [k, i])))).toBe(136);
  });
});
