import { proxy } from 'valtio';
import type { ChatGroup } from '@/api/chat.api';
import type { BusyRoom } from '@/api/moderation.api';

export interface ModerationState {
  /** The busiest rooms of the moderator's scope; null until the first answer. */
  rooms: BusyRoom[] | null;
  roomsFailed: boolean;
  /** The groups of unnamed rooms, read once each to name them by the group name rule. */
  roomGroups: Record<string, ChatGroup>;
}

export const moderationStore = proxy<ModerationState>({ rooms: null, roomsFailed: false, roomGroups: {} });

export function resetModeration(): void {
  moderationStore.rooms = null;
  moderationStore.roomsFailed = false;
  moderationStore.roomGroups = {};
}
