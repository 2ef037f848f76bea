import { type MutableRefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { VirtualListControl } from '../components/VirtualList';
import { type ReadMark, firstUnreadIndex, newBelow } from './reading-position';

interface Listed {
  seq: number;
  userCode: string | null;
}

export interface ReadingPosition {
  /** The row the 'new messages' divider sits above; null without one. */
  dividerKey: string | null;
  /** Messages that came in below while the reader was scrolled up. */
  newCount: number;
  handleAtBottomChange: (atBottom: boolean) => void;
  jumpToLatest: () => void;
}

/**
 * Where the reader is in a chat: the divider is placed once, when the messages first load, and the view
 * opens at it; while the reader is scrolled up, new messages are counted instead of scrolled to.
 */
export function useReadingPosition<T extends Listed>(
  items: readonly T[],
  keyOf: (item: T) => string,
  loaded: boolean,
  mark: ReadMark | null,
  me: string | null,
  control: MutableRefObject<VirtualListControl | null>,
): ReadingPosition {
  const [dividerKey, setDividerKey] = useState<string | null | undefined>(undefined);
  if (dividerKey === undefined && loaded && mark) {
    const at = firstUnreadIndex(items, mark, me);
    setDividerKey(at >= 0 ? keyOf(items[at]) : null);
  }

  useEffect(() => {
    if (dividerKey) control.current?.scrollToKey(dividerKey);
  }, [dividerKey, control]);

  const [atBottom, setAtBottom] = useState(true);
  const lastSeen = useRef<string | null>(null);
  const keys = items.map(keyOf);
  if (atBottom) lastSeen.current = keys[keys.length - 1] ?? null;
  const newCount = atBottom ? 0 : newBelow(keys, lastSeen.current);

  const jumpToLatest = useCallback(() => control.current?.scrollToEnd(), [control]);
  return { dividerKey: dividerKey ?? null, newCount, handleAtBottomChange: setAtBottom, jumpToLatest };
}
