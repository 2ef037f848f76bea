import type { ParleySocket } from '@/realtime/connection';
import { chatStore, highestSeq, receiveMessages } from './chat.store';
import { ACK_TIMEOUT_MS } from './live-socket';
import { applySyncedEdits, applySyncedTranslations, editCursorOf, translationCursorOf } from './message-edits';

/** At most this many sync answers per (re)connect. */
const SYNC_ROUNDS = 20;
/** The server's limits on one sync: at most this many groups per event (each at most once). */
export const SYNC_MAX_GROUPS = 100;
/** How long to wait before asking again when the server says sync came too fast (429). */
export const SYNC_RETRY_MS = 1000;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * After a (re)connect: every message after the last seq held, for each loaded thread, until none is left.
 * Each answer is capped, so the groups it names in `more` are asked again, from the newest seq now held;
 * a 429 (sync is rate limited) waits a moment and asks again; at most SYNC_ROUNDS answers in all.
 */
export async function syncThreads(socket: ParleySocket): Promise<void> {
  let codes = Object.entries(chatStore.threads)
    .filter(([, t]) => t.loaded)
    .map(([code]) => code);
  for (let round = 0; round < SYNC_ROUNDS && codes.length; round++) {
    const batch = codes.slice(0, SYNC_MAX_GROUPS);
    const groups = batch.map((groupCode) => ({
      groupCode,
      afterSeq: highestSeq(chatStore.threads[groupCode]),
      afterEditSeq: editCursorOf(groupCode),
      afterTranslationSeq: translationCursorOf(groupCode),
    }));
    const res = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('sync', { groups });
    if (!res.ok) {
      if (res.error.code !== 429) return;
      await wait(SYNC_RETRY_MS);
      continue;
    }
    receiveMessages(res.messages);
    applySyncedEdits(res.edited ?? [], res.editSeqs ?? {});
    applySyncedTranslations(res.translated ?? [], res.translationSeqs ?? {});
    codes = [...new Set([...res.more, ...codes.slice(SYNC_MAX_GROUPS)])];
  }
}
