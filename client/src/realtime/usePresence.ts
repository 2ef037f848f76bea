import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { Presence } from '@/components/presence/presence';
import { type HeldStatus, presenceAt, presenceStore, watchPresence } from './presence.store';

/** How often the shown minutes are looked at again; a minute moves on at most this late. */
export const PRESENCE_TICK_MS = 15_000;

/**
 * The presence of these users, kept live by `presence` pushes (or REST while the socket is down); the
 * 'inactive N minutes' count moves on every minute by itself.
 */
export function usePresence(codes: readonly string[]): Record<string, Presence | null> {
  const key = [...new Set(codes)].sort().join(',');
  const { statuses } = useSnapshot(presenceStore);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!key) return;
    return watchPresence(key.split(','));
  }, [key]);

  useEffect(() => {
    const refresh = () => setNow(Date.now());
    const timer = setInterval(refresh, PRESENCE_TICK_MS);
    // A background tab's timers are throttled: coming back shows the minutes as they are now.
    window.addEventListener('focus', refresh);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', refresh);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, []);

  const out: Record<string, Presence | null> = {};
  for (const code of key ? key.split(',') : []) out[code] = presenceAt(statuses[code] as HeldStatus | undefined, Math.max(now, Date.now()));
  return out;
}
