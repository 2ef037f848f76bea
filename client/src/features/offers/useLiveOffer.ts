import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { realtimeStore } from '@/realtime/connection';
import { loadOffer } from './offer.store';

/** While the socket is down, an open offer is asked for this often (pushes cannot reach it). */
export const OFFER_POLL_MS = 10_000;

/**
 * Keeps an open offer fresh: loaded when shown and again whenever the socket's state changes (a move made
 * while the socket was connecting sent its push to nobody here), and polled while the socket is down.
 */
export function useLiveOffer(offerCode: string): void {
  const connected = useSnapshot(realtimeStore).status === 'connected';
  useEffect(() => {
    void loadOffer(offerCode, true);
  }, [offerCode, connected]);
  useEffect(() => {
    if (connected) return;
    const timer = setInterval(() => void loadOffer(offerCode, true), OFFER_POLL_MS);
    return () => clearInterval(timer);
  }, [offerCode, connected]);
}

/** A key that changes with every offer push and whenever the socket connects or drops: lists load again when it does. */
export function useOfferChanges(pushes: number): string {
  const { status } = useSnapshot(realtimeStore);
  return `${pushes}:${status === 'connected'}`;
}
