import { useSnapshot } from 'valtio';
import { replyEditStore } from './reply-edit.store';

/** Whether this message is the original a quote just jumped to. */
export function useHighlighted(groupCode: string, seq: number): boolean {
  const highlighted = useSnapshot(replyEditStore).highlighted;
  return highlighted !== null && seq > 0 && highlighted.groupCode === groupCode && highlighted.seq === seq;
}
