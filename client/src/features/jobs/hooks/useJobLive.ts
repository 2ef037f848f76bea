import type { OfferStatusPayload } from '@contracts/socket-events';
import { useEffect } from 'react';
import { GROUP_TYPE } from '@/api/chat-types';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
import { subscribeSocket } from '@/realtime/subscribe';
import { applyJobOfferStatus } from '../jobs.actions';

const REFRESH_DELAY_MS = 300;

/**
 * Keeps a job's view live: an `offer:status` push for one of its offers moves the row at once and reads the
 * job's offers again (a revision changes price and deadline too); a new offer chat (`group:updated` of type
 * JobOffer, which announces a new offer to the customer) reads them again as well. Bursts are read once.
 */
export function useJobLive(jobCode: string, refresh: () => void): void {
  useEffect(() => {
    const socket = realtimeConnection().connect();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const later = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(refresh, REFRESH_DELAY_MS);
    };
    const unsubscribe = subscribeSocket(socket, {
      'offer:status': (payload: OfferStatusPayload) => {
        if (payload.jobCode !== jobCode) return;
        applyJobOfferStatus(payload);
        later();
      },
      'group:updated': (group: object) => {
        if ((group as { type?: number }).type === GROUP_TYPE.JobOffer) later();
      },
      // After a reconnect, whatever was missed meanwhile.
      connect: later,
    });
    return () => {
      if (timer) clearTimeout(timer);
      unsubscribe();
    };
  }, [jobCode, refresh]);
}
