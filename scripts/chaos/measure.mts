// What a fault cost, measured once its traffic has drained: deliveries, quiet-chat latency, unread counts.
import { sleep } from '../lib/common.mts';
import { type ChatClient, type Stats, api } from './clients.mts';
import type { ChaosStack } from './stack.mts';
import type { Probe, UnreadDiff, World } from './types.mts';

/** A quiet chat's message must reach its recipient within this long of the fault ending. */
export const LIVE_WITHIN_MS = 10_000;
/** How long a pushed unread count may lag behind the REST count after the traffic stopped. */
const UNREAD_SETTLE_MS = 10_000;

/**
 * lost: acknowledged but not stored, or missing at a member of its chat after the final sync;
 * duplicated: stored twice for one client key, or delivered live twice to one client.
 */
export async function deliveryFaults(stack: ChaosStack, world: World, stats: Stats): Promise<{ lost: number; duplicated: number }> {
  const members = new Map<string, ChatClient[]>();
  for (const c of world.all) for (const g of c.user.groups) members.set(g, [...(members.get(g) ?? []), c]);
  const missing = stats.ackedMessages.filter((m) => (members.get(m.groupCode) ?? []).some((c) => !c.received.has(m.code))).length;
  const keys = stats.ackedMessages.map((m) => m.clientKey);
  const stored = await stack.query('SELECT client_key, count(*)::int AS n FROM chat_message WHERE client_key = ANY($1::varchar[]) GROUP BY client_key', [keys]);
  const storedTwice = stored.reduce((sum: number, r: { n: number }) => sum + r.n - 1, 0);
  return { lost: missing + keys.length - stored.length, duplicated: stats.duplicatedLive + storedTwice };
}

/** Quiet-chat messages (sent during the fault) not at their recipient within LIVE_WITHIN_MS of the fault's end or their ack. */
export function liveMissedOf(probes: Probe[], endedAt: number): number {
  return probes.filter((p) => {
    if (!p.code) return true;
    const got = p.recipient.received.get(p.code);
    return !got || got.at > Math.max(endedAt, p.ackedAt ?? 0) + LIVE_WITHIN_MS;
  }).length;
}

/**
 * Users whose last pushed unread total differs from GET /api/message/UnreadCount, once settled: a user who
 * differs is asked again every second, for up to UNREAD_SETTLE_MS (a count may follow its message a moment later).
 */
export async function settledUnreadDiffs(clients: ChatClient[]): Promise<UnreadDiff[]> {
  const deadline = Date.now() + UNREAD_SETTLE_MS;
  let pending = clients;
  for (;;) {
    const diffs: (UnreadDiff & { client: ChatClient })[] = [];
    for (const c of pending) {
      const rest = await api(c.url, 'GET', '/api/message/UnreadCount', null, c.user.token);
      const pushed = c.unread?.total ?? 0;
      if (pushed !== rest.total)
        diffs.push({ client: c, user: c.user.code, pushed, rest: rest.total, pushedGroups: c.unread?.groups ?? {}, restGroups: rest.groups });
    }
    if (!diffs.length || Date.now() > deadline) return diffs.map(({ client: _client, ...d }) => d);
    pending = diffs.map((d) => d.client);
    await sleep(1000);
  }
}
