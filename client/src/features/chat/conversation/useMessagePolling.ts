import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { realtimeStore } from '@/realtime/connection';
import { MESSAGE_POLL_MS } from '../chat-logic';
import { markRead } from '../unread.actions';
import { pollNewer } from '../message-pages.actions';

/** While the socket is not connected, asks for newer messages every 5 s (and marks them read). */
export function useMessagePolling(code: string, loaded: boolean): void {
  const { status } = useSnapshot(realtimeStore);
  useEffect(() => {
    if (status === 'connected' || !loaded) return;
    const timer = setInterval(() => {
      void pollNewer(code)
        .then((n) => (n ? markRead(code) : undefined))
        .catch(() => undefined);
    }, MESSAGE_POLL_MS);
    return () => clearInterval(timer);
  }, [status, code, loaded]);
}
