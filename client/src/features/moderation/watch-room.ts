import { chatApi } from '@/api/chat.api';
import { type ParleySocket, isRealtimeConnected } from '@/realtime/connection';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
import { pollNewer } from '@/features/chat/chat.actions';
import { receiveMessages, threadOf, upsertGroup } from '@/features/chat/chat.store';

const ACK_TIMEOUT_MS = 10_000;

/** The room's group (name, people) for a moderator: readable without a watch, with no message in it. */
export async function loadWatchedGroup(code: string): Promise<void> {
  upsertGroup(await chatApi.group(code));
}

/**
 * The room's messages, once the watch is live (the server refuses a moderator's reads otherwise): the newest
 * page the first time, then whatever came while the watch was down. No read marker moves.
 */
export async function loadWatchedMessages(code: string): Promise<void> {
  if (threadOf(code).loaded) {
    await pollNewer(code);
    return;
  }
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
