import { chatApi } from '@/api/chat.api';
import { moderationApi } from '@/api/moderation.api';
import { moderationStore, resetModeration } from './moderation.store';

/** The rooms screen opens on a fresh list: one kept from an earlier visit may be another user's. */
export function openRooms(): Promise<void> {
  resetModeration();
  return loadRooms();
}

/** The busiest rooms again; a failure keeps the rooms shown and says so. */
export async function loadRooms(): Promise<void> {
  moderationStore.roomsFailed = false;
  try {
    moderationStore.rooms = await moderationApi.rooms();
    await loadRoomGroups();
  } catch {
    moderationStore.roomsFailed = true;
  }
}

/**
 * The rooms list carries no participants: each unnamed room's group is read with it (at most 20 rooms), so it can
 * be named like the chat names it. A room whose group cannot be read keeps its code.
 */
async function loadRoomGroups(): Promise<void> {
  const unnamed = (moderationStore.rooms ?? []).filter((room) => !room.name);
  await Promise.all(
    unnamed.map((room) =>
      chatApi.group(room.code).then(
        (group) => void (moderationStore.roomGroups[room.code] = group),
        () => undefined,
      ),
    ),
  );
}
