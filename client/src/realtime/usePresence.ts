import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { Presence } from '@/components/presence/presence';
import { type HeldStatus, presenceAt, presenceStore, watchPresence } from './presence.store';

const MINUTE_MS = 60_000;

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
    const timer = setInterval(() => setNow(Date.now()), MINUTE_MS);
    return () => clearInterval(timer);
  }, []);

  const out: Record<string, Presence | null> = {};
  for (const code of key ? key.split(',') : []) out[code] = presenceAt(statuses[code] as HeldStatus | undefined, Math.max(now, Date.now()));
  return out;
}
