import type { BusyRoomResponse } from '@contracts/rest/moderation';
import { http } from './http';

/** GET /api/admin/rooms. */
export type BusyRoom = BusyRoomResponse;

export const ROOMS_WINDOW_MINUTES = 60;

export const moderationApi = {
  rooms: (minutes = ROOMS_WINDOW_MINUTES) => http.get<BusyRoom[]>(`/api/admin/rooms?minutes=${minutes}`, { cache: false }),
};
