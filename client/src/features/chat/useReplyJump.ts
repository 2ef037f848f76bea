import type { ChatReplyPreview } from '@contracts/events';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { ChatMessage } from '@/api/chat.api';
import { notify } from '@/components/notifications/notify';
import { replyEditStore } from './reply-edit.store';
import { jumpToOriginal } from './reply-jump';

/**
 * For one conversation: the quote's click handler (loads older pages until the original is there, or says
 * it can't be found) and the row the list should scroll to (the highlighted original, once per jump).
 */
export function useReplyJump(
  groupCode: string,
  thread: { readonly bySeq: { readonly [seq: number]: object } } | undefined,
  rowKey: (m: ChatMessage) => string,
) {
  const { t } = useTranslation();
  const highlighted = useSnapshot(replyEditStore).highlighted;
  const jumpToReply = useCallback(
    (reply: ChatReplyPreview) => {
      void jumpToOriginal(groupCode, reply.seq)
        .then((found) => (found ? undefined : notify.info(t('CHAT.ORIGINAL_NOT_FOUND'))))
        .catch(() => undefined);
    },
    [groupCode, t],
  );
  const target = highlighted && highlighted.groupCode === groupCode ? thread?.bySeq[highlighted.seq] : undefined;
  const id = highlighted?.id;
  const jumpTo = useMemo(() => (target && id !== undefined ? { key: rowKey(target as ChatMessage), id } : null), [target, id, rowKey]);
  return { jumpToReply, jumpTo };
}
