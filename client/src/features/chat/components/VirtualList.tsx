import { type HTMLAttributes, type MutableRefObject, type ReactNode, memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type ScrollAnchor, anchorAt, prefixOffsets, rowHeights, rowWindow, scrollTopFor } from '../virtual-window';

/** Within this many px of the end the reader counts as "at the bottom" and new rows keep it there. */
export const STICK_PX = 40;
/** jsdom and a hidden tab have no layout: assume a viewport this tall. */
const FALLBACK_VIEWPORT_PX = 800;
/** Passes of measure → re-render allowed before the next scroll or resize (a guard against rows that never settle). */
const MAX_MEASURE_PASSES = 8;

/** What the owner may ask of the list. */
export interface VirtualListControl {
  /** Goes to the newest row and stays there as rows arrive. */
  scrollToEnd(): void;
  /** Puts this row near the top of the view (the 'new messages' divider when a chat opens). */
  scrollToKey(key: string): void;
}

/** Room left above a row scrolled to, so the row above it peeks in. */
const SCROLL_TO_KEY_MARGIN_PX = 48;

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  /** Height assumed for a row not measured yet. Default 64. */
  estimateHeight?: number;
  /** Rows rendered beyond the viewport, in px, above and below. Default 600. */
  overscanPx?: number;
  /** Above the rows (the 'load older' button). */
  header?: ReactNode;
  /** Below the rows (the empty state). */
  footer?: ReactNode;
  /**
   * Shared with the owner: true while the reader is at the bottom, so new rows keep them there; the owner
   * sets it to true to jump to the end (after sending).
   */
  stickRef: MutableRefObject<boolean>;
  /** Told when the reader reaches or leaves the bottom. Default: nobody. */
  onAtBottomChange?: (atBottom: boolean) => void;
  /** Filled with the list's controls while it is mounted. Default: none. */
  controlRef?: MutableRefObject<VirtualListControl | null>;
  /** Attributes of the element that holds the rows (role, label, test id). */
  listProps?: HTMLAttributes<HTMLDivElement> & Record<`data-${string}`, string | number | boolean | undefined>;
  /** Scrolls this row into the middle of the view, once per `id` (a reply's jump to its original). Default none. */
  jumpTo?: { key: string; id: number } | null;
  /** Attributes of the scrolling element. */
  scrollProps?: HTMLAttributes<HTMLDivElement> & Record<`data-${string}`, string | number | boolean | undefined>;
}

interface RowProps {
  rowKey: string;
  item: unknown;
  index: number;
  setSize: number;
  render: (item: unknown, index: number) => ReactNode;
}

/** One row; re-rendered only when its item (or the owner's render function) changes, not on every measure or scroll pass. */
const Row = memo(function Row({ rowKey, item, index, setSize, render }: RowProps) {
  return (
    <div data-key={rowKey} role="article" aria-posinset={index + 1} aria-setsize={setSize} style={{ display: 'flow-root' }}>
      {render(item, index)}
    </div>
  );
});

/**
 * A list that renders only the rows in view (plus an overscan band) between two spacers. Row heights are
 * measured once rendered (estimated before); the first visible row is kept in place when rows above it
 * are added ('load older') or re-measured, and the list stays at the bottom while the reader is there.
 */
export function VirtualList<T>({
  items,
  itemKey,
  renderItem,
  estimateHeight = 64,
  overscanPx = 600,
  header,
  footer,
  stickRef,
  onAtBottomChange,
  controlRef,
  listProps,
  scrollProps,
  jumpTo = null,
}: VirtualListProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rowsRef = useRef<HTMLDivElement>(null);
  const measured = useRef(new Map<string, number>());
  const [version, setVersion] = useState(0);
  const [tick, setTick] = useState(0);
  const [view, setView] = useState({ top: 0, height: 0 });
  const anchor = useRef<ScrollAnchor | null>(null);
  const rowsTop = useRef(0);
  const firstKey = useRef<string | null>(null);
  const passes = useRef(0);
  const keyScrollPending = useRef(false);

  const keys = useMemo(() => items.map(itemKey), [items, itemKey]);
  const indexOf = useMemo(() => new Map(keys.map((k, i) => [k, i])), [keys]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- version marks new measurements in the ref
  const offsets = useMemo(() => prefixOffsets(rowHeights(keys, measured.current, estimateHeight)), [keys, version, estimateHeight]);
  const live = useRef({ keys, offsets });
  live.current = { keys, offsets };

  const viewportHeight = view.height > 0 ? view.height : FALLBACK_VIEWPORT_PX;
  // Render the rows where the layout pass is about to put the viewport (at the bottom, or back at the anchor
  // after rows were added above or measured), not where it was: no pass renders rows that are thrown away.
  const prepending = firstKey.current !== null && keys[0] !== firstKey.current && indexOf.has(firstKey.current);
  let contentTop = Math.max(0, view.top - rowsTop.current);
  if (stickRef.current && !prepending) contentTop = Math.max(0, offsets[offsets.length - 1] - viewportHeight);
  else if (anchor.current) contentTop = Math.max(0, scrollTopFor(anchor.current, offsets, indexOf) ?? contentTop);
  const win = rowWindow(offsets, contentTop, viewportHeight, overscanPx);

  // What the owner was last told, apart from stickRef (which scrollToKey clears before the scroll happens).
  const atBottomChanged = useRef(onAtBottomChange);
  atBottomChanged.current = onAtBottomChange;
  const reportedAtBottom = useRef(true);
  const reportAtBottom = useCallback((atBottom: boolean) => {
    if (atBottom === reportedAtBottom.current) return;
    reportedAtBottom.current = atBottom;
    atBottomChanged.current?.(atBottom);
  }, []);
  const handleScroll = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    passes.current = 0;
    const atBottom = el.scrollHeight - el.clientHeight - el.scrollTop < STICK_PX;
    reportAtBottom(atBottom);
    stickRef.current = atBottom;
    anchor.current = anchorAt(live.current.offsets, live.current.keys, el.scrollTop - rowsTop.current);
    setView((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
  }, [stickRef, reportAtBottom]);

  useEffect(() => {
    if (!controlRef) return;
    controlRef.current = {
      scrollToEnd() {
        passes.current = 0;
        stickRef.current = true;
        reportAtBottom(true);
        setTick((n) => n + 1);
      },
      scrollToKey(key: string) {
        passes.current = 0;
        stickRef.current = false;
        keyScrollPending.current = true;
        anchor.current = { key, delta: SCROLL_TO_KEY_MARGIN_PX };
        setTick((n) => n + 1);
      },
    };
    return () => {
      controlRef.current = null;
    };
  }, [controlRef, stickRef, reportAtBottom]);

  // Rows that change size later (an image loads, the width changes) and a resized viewport: lay out again.
  useEffect(() => {
    const el = scrollRef.current;
    const rows = rowsRef.current;
    if (!el || !rows || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      passes.current = 0;
      setTick((n) => n + 1);
    });
    observer.observe(el);
    observer.observe(rows);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    const rows = rowsRef.current;
    if (!el || !rows) return;
    // 1. Measure the rendered rows; new heights re-render first, the scroll position is settled after.
    if (passes.current < MAX_MEASURE_PASSES) {
      let changed = false;
      for (const child of Array.from(rows.children) as HTMLElement[]) {
        const key = child.dataset.key;
        if (key === undefined) continue;
        const h = child.getBoundingClientRect().height;
        if (h > 0 && Math.abs((measured.current.get(key) ?? 0) - h) > 0.5) {
          measured.current.set(key, h);
          changed = true;
        }
      }
      if (changed) {
        passes.current++;
        setVersion((n) => n + 1);
        return;
      }
    }
    rowsTop.current = rows.offsetTop;
    // 2. Rows added above (load older) keep the first visible row where it was; else stay at the bottom.
    const prepended = firstKey.current !== null && keys[0] !== firstKey.current && indexOf.has(firstKey.current);
    if (prepended) stickRef.current = false;
    if (stickRef.current) {
      const bottom = el.scrollHeight - el.clientHeight;
      if (Math.abs(el.scrollTop - bottom) > 1) el.scrollTop = bottom;
    } else if (anchor.current) {
      const want = scrollTopFor(anchor.current, offsets, indexOf);
      if (want !== null && Math.abs(el.scrollTop - (want + rowsTop.current)) > 1) el.scrollTop = want + rowsTop.current;
    }
    // A row scrolled to that sits in the last screenful leaves the reader at the bottom, with no scroll event to say so.
    if (keyScrollPending.current) {
      keyScrollPending.current = false;
      if (el.scrollHeight - el.clientHeight - el.scrollTop < STICK_PX) stickRef.current = true;
    }
    firstKey.current = keys[0] ?? null;
    anchor.current = anchorAt(offsets, keys, el.scrollTop - rowsTop.current);
    if (view.top !== el.scrollTop || view.height !== el.clientHeight) setView({ top: el.scrollTop, height: el.clientHeight });
  }, [keys, indexOf, offsets, view, tick, stickRef]);

  // A jump: the row's offset is known (measured or estimated), so it is scrolled to even when not rendered;
  // the anchor then keeps it in place while the rows around it are measured.
  const jumped = useRef<number | null>(null);
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || !jumpTo || jumped.current === jumpTo.id) return;
    const index = indexOf.get(jumpTo.key);
    if (index === undefined) return;
    jumped.current = jumpTo.id;
    stickRef.current = false;
    el.scrollTop = Math.max(0, rowsTop.current + offsets[index] - el.clientHeight / 3);
    anchor.current = anchorAt(offsets, keys, el.scrollTop - rowsTop.current);
    setView({ top: el.scrollTop, height: el.clientHeight });
  }, [jumpTo, indexOf, offsets, keys, stickRef]);

  const rendered: ReactNode[] = [];
  for (let i = win.start; i < win.end; i++) {
    rendered.push(<Row key={keys[i]} rowKey={keys[i]} item={items[i]} index={i} setSize={items.length} render={renderItem as RowProps['render']} />);
  }

  return (
    <div
      {...scrollProps}
      ref={scrollRef}
      onScroll={handleScroll}
      style={{ position: 'relative', overflowY: 'auto', overflowAnchor: 'none', ...scrollProps?.style }}
    >
      {/* A short list sits at the bottom of the view, where the newest message and the composer are. */}
      <div style={{ display: 'flex', flexDirection: 'column', minHeight: '100%' }}>
        <div style={{ flex: '1 0 0' }} aria-hidden="true" />
        {header}
        <div {...listProps} ref={rowsRef} data-rendered={win.end - win.start} data-total={items.length} style={{ flexShrink: 0, ...listProps?.style }}>
          <div style={{ height: win.before }} aria-hidden="true" />
          {rendered}
          <div style={{ height: win.after }} aria-hidden="true" />
        </div>
        {footer}
      </div>
    </div>
  );
}
