/**
 * Window math for the virtualised message list: rows have measured heights (or an estimate until they
 * are measured); only the rows that intersect the viewport, plus an overscan band, are rendered.
 */

export interface RowWindow {
  /** First rendered row. */
  start: number;
  /** One past the last rendered row. */
  end: number;
  /** Height of the rows above the window (the top spacer). */
  before: number;
  /** Height of the rows below the window (the bottom spacer). */
  after: number;
  total: number;
}

/** offsets[i] is the top of row i; offsets[n] is the total height. */
export function prefixOffsets(heights: readonly number[]): number[] {
  const offsets = new Array<number>(heights.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i] + heights[i];
  return offsets;
}

/** The row that holds the point y (clamped to the first and last row); -1 without rows. */
export function rowAt(offsets: readonly number[], y: number): number {
  const n = offsets.length - 1;
  if (n <= 0) return -1;
  if (y <= 0) return 0;
  if (y >= offsets[n]) return n - 1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The rows to render for a viewport at scrollTop (content coordinates) of the given height. */
export function rowWindow(offsets: readonly number[], scrollTop: number, viewportHeight: number, overscanPx: number, maxRows = 200): RowWindow {
  const n = offsets.length - 1;
  const total = n > 0 ? offsets[n] : 0;
  if (n <= 0) return { start: 0, end: 0, before: 0, after: 0, total };
  const start = rowAt(offsets, scrollTop - overscanPx);
  let end = rowAt(offsets, scrollTop + viewportHeight + overscanPx) + 1;
  // A guard against a burst of rows measured at 0 px: never more than maxRows at once.
  end = Math.min(end, start + maxRows);
  return { start, end, before: offsets[start], after: total - offsets[end], total };
}

/** Heights for the rows: the measured one where known (0 means not laid out), else the estimate. */
export function rowHeights(keys: readonly string[], measured: ReadonlyMap<string, number>, estimate: number): number[] {
  return keys.map((key) => {
    const h = measured.get(key);
    return h && h > 0 ? h : estimate;
  });
}

export interface ScrollAnchor {
  key: string;
  /** Distance from the viewport's top to the anchor row's top (negative when the row starts above it). */
  delta: number;
}

/**
 * The first row that starts at or below scrollTop (the last row if none does), and where it sits relative
 * to the viewport's top. A row that starts inside the viewport is kept in place even when its own height,
 * or the height of any row above it, is measured anew.
 */
export function anchorAt(offsets: readonly number[], keys: readonly string[], scrollTop: number): ScrollAnchor | null {
  let i = rowAt(offsets, scrollTop);
  if (i < 0) return null;
  if (offsets[i] < scrollTop && i + 1 < keys.length) i += 1;
  return { key: keys[i], delta: offsets[i] - scrollTop };
}

/** The scrollTop that puts the anchor row back where it was, after rows above it were added or re-measured. */
export function scrollTopFor(anchor: ScrollAnchor, offsets: readonly number[], indexOf: ReadonlyMap<string, number>): number | null {
  const i = indexOf.get(anchor.key);
  if (i === undefined) return null;
  return offsets[i] - anchor.delta;
}
