import { http } from './http';

/** GET /api/admin/rooms (server/src/modules/moderation/dto/moderation.dto.ts BusyRoomDto). */
export interface BusyRoom {
  code: string;
  name: string | null;
  type: number;
  /** Messages in the window. */
  messages: number;
  lastMessageAt: string;
  participants: number;
  /** Participants with a connected socket now. */
  connectedParticipants: number;
  watched: boolean;
}

export const ROOMS_WINDOW_MINUTES = 60;

export const moderationApi = {
  rooms: (minutes = ROOMS_WINDOW_MINUTES) => http.get<BusyRoom[]>(`/api/admin/rooms?minutes=${minutes}`, { cache: false }),
};
