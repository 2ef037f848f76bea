import { chatApi } from '@/api/chat.api';
import { type ParleySocket, isRealtimeConnected } from '@/realtime/connection';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
import { pollNewer } from '@/features/chat/message-pages.actions';
import { receiveMessages, threadOf, upsertGroup } from '@/features/chat/chat.store';

const ACK_TIMEOUT_MS = 10_000;
export const WATCH_RETRY_MS = 1000;
const WATCH_ATTEMPTS = 5;

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
  for (let attempt = 1; ; attempt++) {
    const res = await socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck('room:watch', { groupCode: code })
      .catch(() => null);
    if (!res) return 'offline';
    if (res.ok) return 'live';
    // room:watch is rate limited (with presence:watch): too fast is not a refusal, ask again in a moment.
    if (res.error.code !== 429 || attempt >= WATCH_ATTEMPTS) return 'refused';
    await new Promise((resolve) => setTimeout(resolve, WATCH_RETRY_MS));
  }
}

export async function stopWatching(code: string, socket: ParleySocket | null = liveSocket()): Promise<void> {
  if (!socket) return;
  await socket
    .timeout(ACK_TIMEOUT_MS)
    .emitWithAck('room:unwatch', { groupCode: code })
    .catch(() => null);
}

function liveSocket(): ParleySocket | null {
  const socket = realtimeConnection().socket;
  return socket && isRealtimeConnected() ? socket : null;
}
