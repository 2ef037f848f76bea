import { useEffect } from 'react';
import { proxy, useSnapshot } from 'valtio';
import type { Presence } from '@/components/presence/presence';
import { type HeldStatus, idleMinutes, presenceAt, presenceStore, watchPresence } from './presence.store';

/** How often the held statuses are looked at again; a minute shows at most this late. */
export const PRESENCE_TICK_MS = 5_000;

/**
 * The one clock every presence on screen is rendered by: `now` moves only when some held status's whole minutes
 * change, so all screens (avatars, lists, headers, one's own) turn together and nothing re-renders in between.
 */
export const presenceClock = proxy({ now: Date.now() });
let users = 0;
let timer: ReturnType<typeof setInterval> | undefined;
let shownMinutes = '';

function tick(): void {
  const now = Date.now();
  const minutes = Object.entries(presenceStore.statuses)
    .map(([code, held]) => `${code}:${idleMinutes(held, now) ?? '-'}`)
    .join(',');
  if (minutes === shownMinutes) return;
  shownMinutes = minutes;
  presenceClock.now = now;
}

function useClock(): void {
  useEffect(() => {
    if (users++ === 0) {
      timer = setInterval(tick, PRESENCE_TICK_MS);
      // A background tab's timers are throttled: coming back shows the minutes as they are now.
      window.addEventListener('focus', tick);
      document.addEventListener('visibilitychange', tick);
    }
    return () => {
      if (--users > 0) return;
      clearInterval(timer);
      window.removeEventListener('focus', tick);
      document.removeEventListener('visibilitychange', tick);
    };
  }, []);
}

/**
 * The presence of these users, kept live by `presence` pushes (or REST while the socket is down); the
 * 'inactive N minutes' count moves on every minute by itself.
 */
export function usePresence(codes: readonly string[]): Record<string, Presence | null> {
  const key = [...new Set(codes)].sort().join(',');
  const { statuses } = useSnapshot(presenceStore);
  useSnapshot(presenceClock);
  useClock();

  useEffect(() => {
    if (!key) return;
    return watchPresence(key.split(','));
  }, [key]);

  // A status heard since the last tick is counted as of now; the clock only decides when to look again.
  const now = Date.now();
  const out: Record<string, Presence | null> = {};
  for (const code of key ? key.split(',') : []) out[code] = presenceAt(statuses[code] as HeldStatus | undefined, now);
  return out;
}
