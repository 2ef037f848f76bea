import type { ParleySocket } from './connection';

/** At most one `activity` a this often; the last interaction held back goes at the end of it, dated back with `ago`. */
export const ACTIVITY_EVERY_MS = 20_000;
const EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Tells the server the person is here: an interaction with a visible tab (a click, a key, a scroll) sends
 * `activity`, at once for the first and then at most once per ACTIVITY_EVERY_MS. Cheap on both ends: one passive
 * listener per event kind, no timer while nobody interacts. Answers the stop.
 */
export function reportActivity(socketFor: () => ParleySocket | null): () => void {
  let sentAt = -Infinity;
  let heldAt: number | null = null;
  let trailing: ReturnType<typeof setTimeout> | undefined;

  /** Sends the interaction at `at`; while the socket is down it is held for the next try (a reconnect counts too). */
  const send = (at: number) => {
    const socket = socketFor();
    const now = Date.now();
    if (!socket) {
      if (heldAt === null || at > heldAt) heldAt = at;
      trailing ??= setTimeout(flush, ACTIVITY_EVERY_MS);
      return;
    }
    const ago = Math.max(0, now - at);
    socket.emit('activity', ago > 0 ? { ago } : {});
    sentAt = now;
  };
  const flush = () => {
    trailing = undefined;
    const at = heldAt;
    heldAt = null;
    if (at !== null) send(at);
  };
  const seen = () => {
    if (document.visibilityState !== 'visible') return;
    const now = Date.now();
    if (now - sentAt >= ACTIVITY_EVERY_MS) return send(now);
    heldAt = now;
    trailing ??= setTimeout(flush, Math.max(0, sentAt + ACTIVITY_EVERY_MS - now));
  };

  for (const name of EVENTS) document.addEventListener(name, seen, { passive: true, capture: true });
  return () => {
    clearTimeout(trailing);
    for (const name of EVENTS) document.removeEventListener(name, seen, { capture: true });
  };
}
