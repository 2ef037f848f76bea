import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { sessionStore } from '@/features/session/session.store';
import { applyInstanceUpdate } from '@/features/instance/instance-updates';
import { applyJobUpdate } from '@/features/jobs/job-updates';
import { applyOfferStatus, resetOffers } from '@/features/offers/offer.store';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { isRealtimeConnected, realtimeStore } from './connection';
import { reportActivity } from './activity-reporter';
import { PRESENCE_POLL_MS, applyStatus, pollPresence, presenceSocketConnected, presenceSocketLost, resetPresence, setPresenceSocket } from './presence.store';
import { realtimeConnection } from './RealtimeConnection';
import { subscribeSocket } from './subscribe';

/**
 * The tab's presence and offer-status subscriptions, and its activity reports (a visible tab's interactions):
 * `presence` pushes for the users screens show (watched again on every reconnect, asked for over REST every 10 s
 * while the socket is down), `offer:status`, and the instance's own changes: `job:updated` (jobs list and view)
 * and `instance:updated` (the shell's look).
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
    const liveSocket = () => (isRealtimeConnected() ? realtimeConnection().socket : null);
    setPresenceSocket(liveSocket);
    const stopReporting = reportActivity(liveSocket);
    const unsubscribe = subscribeSocket(socket, {
      connect: () => void presenceSocketConnected(),
      disconnect: () => presenceSocketLost(),
      presence: (payload) => applyStatus(payload),
      'offer:status': applyOfferStatus,
      'job:updated': (job) => void applyJobUpdate(job, preferencesStore.language),
      'instance:updated': (instance) => void applyInstanceUpdate(instance),
    });
    return () => {
      stopReporting();
      unsubscribe();
    };
  }, [loggedIn]);

  useEffect(() => {
    if (!loggedIn || status === 'connected') return;
    const timer = setInterval(() => void pollPresence(), PRESENCE_POLL_MS);
    return () => clearInterval(timer);
  }, [loggedIn, status]);

  return null;
}
