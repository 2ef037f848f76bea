import type { UnreadCountPayload } from '#shared/contracts/socket-events';

/** How a Socket.IO packet of an `unread:count` event begins, as the routing scripts encode it. */
export const UNREAD_COUNT_PACKET = '2["unread:count",';

/**
 * A user's `unread:count` pushes on this node, at most one per window: the first goes at once; those that come
 * while its window is open are merged (the newest total, each group's newest count) and the result goes when the
 * window closes, which opens the next one. Each push holds exact counts as of when it was made, so the merge of a
 * window's pushes is exact as of the last one, and a user's last push is always the exact count.
 */
export class UnreadCountCoalescer {
  /** Per user room with an open window: the merged counts waiting for its end (null: nothing since it opened). */
  private readonly open = new Map<string, UnreadCountPayload | null>();

  /** The packet to write now, or null when it waits for the end of the room's window. */
  offer(room: string, packet: string): string | null {
    if (!this.open.has(room)) {
      this.open.set(room, null);
      return packet;
    }
    const counts = JSON.parse(packet.slice(UNREAD_COUNT_PACKET.length, -1)) as UnreadCountPayload;
    const waiting = this.open.get(room);
    this.open.set(room, waiting ? { total: counts.total, groups: { ...waiting.groups, ...counts.groups } } : counts);
    return null;
  }

  /** Ends every open window: the merged counts to write now, per room; rooms with nothing waiting close. */
  closeWindows(): [room: string, packet: string][] {
    const due: [string, string][] = [];
    for (const [room, waiting] of this.open) {
      if (waiting) {
        due.push([room, `${UNREAD_COUNT_PACKET}${JSON.stringify(waiting)}]`]);
        this.open.set(room, null);
      } else this.open.delete(room);
    }
    return due;
  }
}
