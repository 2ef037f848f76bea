import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { OfferStatusPayload, PresencePayload } from '@contracts/socket-events';
import { sessionStore } from '@/features/session/session.store';
import { applyOfferStatus, resetOffers } from '@/features/offers/offer.store';
import { isRealtimeConnected, realtimeStore } from './connection';
import { PRESENCE_POLL_MS, applyStatus, pollPresence, presenceSocketConnected, presenceSocketLost, resetPresence, setPresenceSocket } from './presence.store';
import { realtimeConnection } from './RealtimeConnection';

/**
 * The tab's presence and offer-status subscriptions: `presence` pushes for the users screens show (watched
 * again on every reconnect, asked for over REST every 10 s while the socket is down) and `offer:status`.
 * Renders nothing.
 */
export function ScreenRealtime() {
  const { token, user } = useSnapshot(sessionStore);
  const { status } = useSnapshot(realtimeStore);
  const loggedIn = Boolean(token && user);

  useEffect(() => {
    if (!loggedIn) {
      resetPresence();
      resetOffers();
      return;
    }
    const socket = realtimeConnection().connect();
    setPresenceSocket(() => (isRealtimeConnected() ? realtimeConnection().socket : null));
    const handleConnect = () => void presenceSocketConnected();
    const handleDisconnect = () => presenceSocketLost();
    const handlePresence = (payload: PresencePayload) => applyStatus(payload);
    const handleOffer = (payload: OfferStatusPayload) => applyOfferStatus(payload);
    socket.on('connect', handleConnect);
    socket.on('disconnect', handleDisconnect);
    socket.on('presence', handlePresence);
    socket.on('offer:status', handleOffer);
    return () => {
      socket.off('connect', handleConnect);
      socket.off('disconnect', handleDisconnect);
      socket.off('presence', handlePresence);
      socket.off('offer:status', handleOffer);
    };
  }, [loggedIn]);

  useEffect(() => {
    if (!loggedIn || status === 'connected') return;
    const timer = setInterval(() => void pollPresence(), PRESENCE_POLL_MS);
    return () => clearInterval(timer);
  }, [loggedIn, status]);

  return null;
}
