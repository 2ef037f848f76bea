import { proxy } from 'valtio';
import { type TrackRecord, reviewApi } from '@/api/review.api';

export type TrackRecordEntry = { state: 'loading' } | { state: 'loaded'; record: TrackRecord } | { state: 'missing' };

/** Track records by user code: the offer chat's bar and the offer view share one load. */
export const trackRecordStore = proxy<{ byUser: Record<string, TrackRecordEntry> }>({ byUser: {} });

/** Loads a user's track record; `again` reloads one already held (after a review was published). */
export async function loadTrackRecord(userCode: string, again = false): Promise<void> {
  const held = trackRecordStore.byUser[userCode];
  if (held && (!again || held.state === 'loading')) return;
  if (!held) trackRecordStore.byUser[userCode] = { state: 'loading' };
  try {
    trackRecordStore.byUser[userCode] = { state: 'loaded', record: await reviewApi.trackRecord(userCode) };
  } catch {
    if (trackRecordStore.byUser[userCode]?.state !== 'loaded') trackRecordStore.byUser[userCode] = { state: 'missing' };
  }
}
