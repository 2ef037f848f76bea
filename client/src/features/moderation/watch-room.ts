import { chatApi } from '@/api/chat.api';
import { type ParleySocket, isRealtimeConnected } from '@/realtime/connection';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
import { receiveMessages, threadOf, upsertGroup } from '@/features/chat/chat.store';

const ACK_TIMEOUT_MS = 10_000;

/** Loads a room for a moderator: the group and its newest page, without touching any read marker. */
export async function openWatchedRoom(code: string): Promise<void> {
  upsertGroup(await chatApi.group(code));
  const page = await chatApi.messages(code);
  receiveMessages(page.messages);
  const thread = threadOf(code);
  if (!thread.loaded) thread.mayLoadOlder = page.mayLoadOlder;
  thread.loaded = true;
}

export type WatchResult = 'live' | 'offline' | 'refused';

/** room:watch on the live socket: the room's pushes come here and its participants see the 'moderated' flag. */
export async function startWatching(code: string, socket: ParleySocket | null = liveSocket()): Promise<WatchResult> {
  if (!socket) return 'offline';
  const res = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('room:watch', { groupCode: code }).catch(() => null);
  if (!res) return 'offline';
  return res.ok ? 'live' : 'refused';
}

export async function stopWatching(code: string, socket: ParleySocket | null = liveSocket()): Promise<void> {
  if (!socket) return;
  await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('room:unwatch', { groupCode: code }).catch(() => null);
}

function liveSocket(): ParleySocket | null {
  const socket = realtimeConnection().socket;
  return socket && isRealtimeConnected() ? socket : null;
}
