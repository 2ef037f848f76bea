/** REST answers of the moderators' screens (server/src/modules/moderation); the response DTO implements this. */

/** One of the busiest rooms (GET /api/admin/rooms). */
export interface BusyRoomResponse {
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
