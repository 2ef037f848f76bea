import type { ChatMessagePayload } from '@contracts/events';
import { ApiError } from '@/api/api-error';
import { chatApi } from '@/api/chat.api';
import { notify } from '@/components/notifications/notify';
import { t } from '@/i18n/i18n';
import { markDeleted } from './chat.store';
import { ACK_TIMEOUT_MS, liveSocket } from './live-socket';
import { applyMessageUpdate } from './message-edits';

/** Saves my new text of a message (the socket when live, else REST) and shows it; rejects with the server's key. */
export async function editMessage(groupCode: string, code: string, text: string): Promise<void> {
  const socket = liveSocket();
  let stored: Pick<ChatMessagePayload, 'message' | 'translation' | 'editedAt'>;
  if (socket) {
    const res = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('message:edit', { groupCode, code, message: text });
    if (!res.ok) throw new Error(res.error.message);
    stored = res.message;
  } else {
    try {
      stored = await chatApi.editMessage(groupCode, code, text);
    } catch (err) {
      // A validation answer names the broken rule: that is the sentence worth showing.
      throw new Error(err instanceof ApiError ? (err.body?.data?.brokenRules?.[0] ?? err.message) : String(err), { cause: err });
    }
  }
  applyMessageUpdate({ groupCode, code, message: stored.message, translation: stored.translation, editedAt: stored.editedAt ?? null });
}

/** Asks first; on yes the server deletes it and the message becomes the deleted marker. Resolves whether it was deleted. */
export async function deleteMessage(groupCode: string, code: string): Promise<boolean> {
  if (!(await notify.confirm(t('CHAT.DELETE_CONFIRM')))) return false;
  await chatApi.deleteMessage(groupCode, code);
  markDeleted(groupCode, code);
  return true;
}
