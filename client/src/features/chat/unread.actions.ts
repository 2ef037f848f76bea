import { chatApi } from '@/api/chat.api';
import { applyUnread, chatStore, highestSeq } from './chat.store';
import { ACK_TIMEOUT_MS, liveSocket } from './live-socket';

let unreadRequest: Promise<void> | null = null;
let unreadHeard = false;

/** The unread counts; callers at the same moment (app start, a chat being opened) share one request. */
export function loadUnread(): Promise<void> {
  unreadRequest ??= chatApi
    .unreadCount()
    .then((count) => {
      applyUnread(count, true);
      unreadHeard = true;
    })
    .finally(() => {
      unreadRequest = null;
    });
  return unreadRequest;
}

/** Whether an unread count arrived since the page loaded: a group missing from it has none unread. */
export const unreadKnown = (): boolean => unreadHeard;

/** Moves the read marker to the newest message held, when there is anything unread; the answer is the new full count. */
export async function markRead(code: string): Promise<void> {
  const group = chatStore.groups[code];
  const seq = highestSeq(chatStore.threads[code]);
  if (!group || seq === 0 || (group.unread === 0 && group.readSeq >= seq)) return;
  group.readSeq = Math.max(group.readSeq, seq);
  const socket = liveSocket();
  if (socket) {
    const res = await socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck('group:read', { groupCode: code, seq })
      .catch(() => null);
    if (res?.ok) return applyUnread(res.unread, true);
  }
  const res = await chatApi.read(code, seq).catch(() => null);
  if (res) applyUnread(res.unread, true);
}
