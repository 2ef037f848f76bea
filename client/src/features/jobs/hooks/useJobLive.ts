import type { OfferStatusPayload } from '@contracts/socket-events';
import { useEffect } from 'react';
import { GROUP_TYPE } from '@/api/chat-types';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
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
    const handleStatus = (payload: OfferStatusPayload) => {
      if (payload.jobCode !== jobCode) return;
      applyJobOfferStatus(payload);
      later();
    };
    const handleGroup = (group: object) => {
      if ((group as { type?: number }).type === GROUP_TYPE.JobOffer) later();
    };
    // After a reconnect, whatever was missed meanwhile.
    const handleConnect = () => later();
    socket.on('offer:status', handleStatus);
    socket.on('group:updated', handleGroup);
    socket.on('connect', handleConnect);
    return () => {
      if (timer) clearTimeout(timer);
      socket.off('offer:status', handleStatus);
      socket.off('group:updated', handleGroup);
      socket.off('connect', handleConnect);
    };
  }, [jobCode, refresh]);
}
