import type { PresencePayload } from '@contracts/socket-events';
import { proxy } from 'valtio';
import { userApi } from '@/api/user.api';
import { type Presence, presenceOf } from '@/components/presence/presence';
import type { ParleySocket } from './connection';

/** The server takes at most 200 codes per presence:watch. */
export const PRESENCE_WATCH_BATCH = 200;
/** While the socket is down, watched users' statuses are asked for over REST this often. */
export const PRESENCE_POLL_MS = 10_000;
const ACK_TIMEOUT_MS = 10_000;
/** presence:watch is rate limited (shared with room:watch): after a 429, wait this long and ask again, a few times. */
export const PRESENCE_RETRY_MS = 1000;
const PRESENCE_ATTEMPTS = 5;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** presence:watch for one batch; the statuses, or null when the socket would not watch them. */
async function watchLive(socket: ParleySocket, userCodes: string[]): Promise<PresencePayload[] | null> {
  for (let attempt = 1; ; attempt++) {
    const res = await socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck('presence:watch', { userCodes })
      .catch(() => null);
    if (res?.ok) return res.statuses;
    if (res?.error.code !== 429 || attempt >= PRESENCE_ATTEMPTS) return null;
    await wait(PRESENCE_RETRY_MS);
  }
}

/**
 * A status as last heard. The last activity is kept on this tab's clock (when it was heard, less how long the
 * user had been idle then), so every screen counts the minutes from one value and one clock, rounding once.
 */
export interface HeldStatus {
  online: boolean;
  /** this tab's Date.now() at the last activity; null if never seen */
  lastActiveLocal: number | null;
  heardAt: number;
}

export const presenceStore = proxy<{ statuses: Record<string, HeldStatus> }>({ statuses: {} });

/** Users some screen shows, with how many screens show them. */
const wanted = new Map<string, number>();
/** Users the live socket already watches (a new socket watches nobody). */
const subscribed = new Set<string>();
let socketFor: () => ParleySocket | null = () => null;

/** Where the live socket comes from (null while it is down); set once by the realtime subscriptions. */
export function setPresenceSocket(get: () => ParleySocket | null): void {
  socketFor = get;
}

export function applyStatus(status: PresencePayload, now: number = Date.now()): void {
  // idleMs is exact; a server without it gave whole minutes only (then the middle of that minute).
  const idleMs = status.idleMs ?? (status.away === null ? null : status.away * 60_000 + 30_000);
  presenceStore.statuses[status.userCode] = { online: status.online, lastActiveLocal: idleMs === null ? null : now - idleMs, heardAt: now };
}

/** Whole minutes since the last activity, as of `now` on this tab's clock; null if never seen. */
export function idleMinutes(held: HeldStatus | undefined, now: number = Date.now()): number | null {
  if (!held || held.lastActiveLocal === null) return null;
  return Math.floor(Math.max(0, now - held.lastActiveLocal) / 60_000);
}

/** The presence to show now. Unknown users have none. */
export function presenceAt(held: HeldStatus | undefined, now: number = Date.now()): Presence | null {
  if (!held) return null;
  return presenceOf(idleMinutes(held, now), held.online);
}

async function request(codes: string[]): Promise<void> {
  if (!codes.length) return;
  const socket = socketFor();
  for (let i = 0; i < codes.length; i += PRESENCE_WATCH_BATCH) {
    const batch = codes.slice(i, i + PRESENCE_WATCH_BATCH);
    if (socket) {
      batch.forEach((c) => subscribed.add(c));
      const statuses = await watchLive(socket, batch);
      if (statuses) statuses.forEach((s) => applyStatus(s));
      else batch.forEach((c) => subscribed.delete(c));
    } else {
      const askedAt = Date.now();
      const list = await userApi.statuses(batch).catch(() => []);
      // A push heard while the answer was on its way is newer than the answer.
      list.forEach((s) => {
        const held = presenceStore.statuses[s.userCode];
        if (!held || held.heardAt <= askedAt) applyStatus(s);
      });
    }
  }
}

/** Shows these users' presence until the returned release is called: watched live, or asked for over REST. */
export function watchPresence(codes: readonly string[]): () => void {
  const unique = [...new Set(codes)].filter(Boolean);
  unique.forEach((c) => wanted.set(c, (wanted.get(c) ?? 0) + 1));
  void request(unique.filter((c) => !subscribed.has(c) || !presenceStore.statuses[c]));
  return () => {
    for (const c of unique) {
      const n = (wanted.get(c) ?? 1) - 1;
      if (n > 0) wanted.set(c, n);
      else wanted.delete(c);
    }
  };
}

/** A new socket watches nobody yet: every wanted user again, with fresh statuses. */
export function presenceSocketConnected(): Promise<void> {
  subscribed.clear();
  return request([...wanted.keys()]);
}

export function presenceSocketLost(): void {
  subscribed.clear();
}

/** The REST fallback while the socket is down. */
export function pollPresence(): Promise<void> {
  return request([...wanted.keys()]);
}

export const watchedUsers = (): string[] => [...wanted.keys()];

export function resetPresence(): void {
  wanted.clear();
  subscribed.clear();
  presenceStore.statuses = {};
}
