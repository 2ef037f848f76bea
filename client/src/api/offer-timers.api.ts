import type { OfferTimerSettings } from '@contracts/offers';
import { http } from './http';

export interface InstanceOfferTimers extends OfferTimerSettings {
  instanceCode: string;
}

/** The instance's offer timers (instance and global admins): how long offers may wait, and the reminders. */
export const offerTimersApi = {
  get: (instanceCode: string) => http.get<InstanceOfferTimers>(`/api/job-offers/timers?instanceCode=${encodeURIComponent(instanceCode)}`, { cache: false }),
  save: (instanceCode: string, changes: Partial<OfferTimerSettings>) => http.put<InstanceOfferTimers>('/api/job-offers/timers', { instanceCode, ...changes }),
};
