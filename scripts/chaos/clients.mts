// Chat clients as a real app would be: a socket.io-client socket that reconnects with back-off (to the next
// server URL when one is gone), sends through a local outbox retried with the same clientKey until acknowledged,
// `sync`s every group after each (re)connect, and dedupes by message code. Counts what the report needs.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { io } = require('socket.io-client') as typeof import('socket.io-client');
type Socket = import('socket.io-client').Socket;

const ACK_TIMEOUT_MS = 10_000;
const backoff = (attempt: number): number => Math.min(250 * 2 ** attempt, 5000) * (0.5 + Math.random() / 2);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the API's JSON, read by the caller
export async function api(base: string, method: string, path: string, body: unknown, token?: string): Promise<any> {
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      if (attempt < 5) {
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
        continue;
      }
      throw err;
    }
    const json = res.status === 204 ? null : await res.json().catch(() => null);
    if (res.ok) return json;
    if (attempt < 5 && (res.status >= 500 || res.status === 429)) {
      await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      continue;
    }
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  }
}

/** The per-group view a client builds: codes seen, the seqs seen and the highest contiguous one (what sync asks after). */
class GroupView {
  seqs = new Set<number>();
  contiguous = 0;
  max = 0;
  /** the highest seq the server delivered (live or by sync), leaving out this client's own acks */
  deliveredMax = 0;

  add(seq: number): void {
    this.seqs.add(seq);
    this.max = Math.max(this.max, seq);
    while (this.seqs.has(this.contiguous + 1)) this.contiguous++;
  }
}

/** A message as the server sends it (the fields read here). */
export interface ChatMessage {
  code: string;
  groupCode: string;
  seq: number;
}

export interface ChaosUser {
  code: string;
  token: string;
  groups: string[];
}

export interface UnreadCounts {
  total: number;
  groups: Record<string, number>;
}

type Via = 'live' | 'sync' | 'ack';

interface OutboxEntry {
  groupCode: string;
  message: string;
  resolve: (message: ChatMessage) => void;
  at: number;
  inFlight?: boolean;
}

export type Stats = ReturnType<typeof newStats>;

export class ChatClient {
  readonly user: ChaosUser;
  readonly urls: string[];
  urlIndex: number;
  /** Shared counters, reset per fault by the runner. */
  stats: Stats;
  readonly views: Map<string, GroupView>;
  readonly received = new Map<string, { at: number; via: Via }>();
  readonly liveCodes = new Set<string>();
  readonly outbox = new Map<string, OutboxEntry>();
  /** The last unread:count pushed. */
  unread: UnreadCounts | null = null;
  unreadVersion = 0;
  online = true;
  attempt = 0;
  socket: Socket | undefined = undefined;
  connected = false;
  everConnected = false;
  syncing = false;
  resyncAfter = false;
  closed = false;

  constructor({ user, urls, urlIndex = 0, stats }: { user: ChaosUser; urls: string[]; urlIndex?: number; stats: Stats }) {
    this.user = user;
    this.urls = urls;
    this.urlIndex = urlIndex;
    this.stats = stats;
    this.views = new Map(user.groups.map((g) => [g, new GroupView()]));
  }

  get url(): string {
    return this.urls[this.urlIndex % this.urls.length];
  }

  connect(): void {
    if (this.closed || !this.online) return;
    const socket = io(this.url, { auth: { token: this.user.token }, transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5000 });
    this.socket = socket;
    socket.on('connect', () => {
      this.connected = true;
      this.attempt = 0;
      // After a reconnect the app reloads its unread counts (pushes may have been missed while away).
      if (this.everConnected) {
        this.stats.reconnects++;
        const version = this.unreadVersion;
        api(this.url, 'GET', '/api/message/UnreadCount', null, this.user.token)
          .then((u: UnreadCounts) => {
            // A push that came in meanwhile is newer than this answer.
            if (this.unreadVersion === version) this.unread = { total: u.total, groups: { ...u.groups } };
          })
          .catch(() => undefined);
      }
      this.everConnected = true;
      this.syncAll();
      for (const key of this.outbox.keys()) this.emitSend(key);
    });
    socket.on('message:new', (m: ChatMessage) => this.onLive(m));
    socket.on('unread:count', (u: UnreadCounts) => {
      this.unreadVersion++;
      this.unread = { total: u.total, groups: { ...(this.unread?.groups ?? {}), ...u.groups } };
    });
    const retry = () => {
      if (this.socket !== socket) return;
      this.connected = false;
      socket.removeAllListeners();
      socket.close();
      this.socket = undefined;
      if (this.closed || !this.online) return;
      // A server that refuses or vanished: try the next one, after a back-off with jitter.
      this.urlIndex++;
      setTimeout(() => this.connect(), backoff(this.attempt++));
    };
    socket.on('connect_error', retry);
    socket.on('disconnect', retry);
  }

  onLive(m: ChatMessage): void {
    const view = this.views.get(m.groupCode);
    if (!view) return;
    if (this.liveCodes.has(m.code)) {
      this.stats.duplicatedLive++;
      return;
    }
    this.liveCodes.add(m.code);
    if (this.received.has(m.code)) return; // already had it from sync or its own ack
    // Behind a message already delivered by the server (live or sync); its own acks don't count: another
    // person's earlier message may well be announced after this client's own send was acknowledged.
    if (m.seq < view.deliveredMax) this.stats.outOfOrder++;
    this.take(m, 'live');
  }

  take(m: ChatMessage, via: Via): void {
    if (this.received.has(m.code)) return;
    this.received.set(m.code, { at: Date.now(), via });
    const view = this.views.get(m.groupCode);
    view?.add(m.seq);
    if (view && via !== 'ack') view.deliveredMax = Math.max(view.deliveredMax, m.seq);
  }

  /** Asks for everything after each group's contiguous seq, page after page, until nothing is left. */
  async syncAll(groups = [...this.views.keys()]): Promise<void> {
    if (this.syncing) {
      this.resyncAfter = true;
      return;
    }
    this.syncing = true;
    try {
      let pending = groups;
      while (pending.length && this.connected) {
        const socket = this.socket!;
        const res: { ok: boolean; messages: ChatMessage[]; more: string[] } | null = await socket
          .timeout(ACK_TIMEOUT_MS)
          .emitWithAck('sync', { groups: pending.map((g) => ({ groupCode: g, afterSeq: this.views.get(g)!.contiguous })) })
          .catch(() => null);
        if (!res?.ok) {
          await new Promise((r) => setTimeout(r, 500));
          continue;
        }
        for (const m of res.messages) this.take(m, 'sync');
        pending = res.more;
      }
    } finally {
      this.syncing = false;
      if (this.resyncAfter) {
        this.resyncAfter = false;
        void this.syncAll();
      }
    }
  }

  /** Sends through the outbox; resolves with the stored message once acknowledged (retried until then). */
  send(groupCode: string, message: string): Promise<ChatMessage> {
    const clientKey = `c${randomBytes(8).toString('hex')}`;
    return new Promise((resolve) => {
      this.outbox.set(clientKey, { groupCode, message, resolve, at: Date.now() });
      this.stats.sends++;
      this.emitSend(clientKey);
    });
  }

  emitSend(clientKey: string): void {
    const entry = this.outbox.get(clientKey);
    if (!entry || !this.connected || entry.inFlight) return;
    entry.inFlight = true;
    const socket = this.socket!;
    socket
      .timeout(ACK_TIMEOUT_MS)
      .emit(
        'message:send',
        { groupCode: entry.groupCode, clientKey, message: entry.message },
        (err: Error | null, res?: { ok?: boolean; message: ChatMessage }) => {
          entry.inFlight = false;
          if (!err && res?.ok) {
            this.outbox.delete(clientKey);
            this.stats.acked++;
            this.take(res.message, 'ack');
            this.stats.ackedMessages.push({ code: res.message.code, clientKey, groupCode: entry.groupCode, seq: res.message.seq });
            return entry.resolve(res.message);
          }
          // An error answer or no answer: the same clientKey again later (the server stores a key once).
          setTimeout(() => this.emitSend(clientKey), 500 + Math.random() * 500);
        },
      );
  }

  async markRead(groupCode: string): Promise<void> {
    const view = this.views.get(groupCode);
    if (!this.connected || !view?.contiguous) return;
    await this.socket!.timeout(ACK_TIMEOUT_MS)
      .emitWithAck('group:read', { groupCode, seq: view.contiguous })
      .catch(() => undefined);
  }

  goOffline(): void {
    this.online = false;
    this.connected = false;
    const socket = this.socket;
    this.socket = undefined;
    socket?.removeAllListeners();
    socket?.close();
  }

  goOnline(): void {
    this.online = true;
    this.connect();
  }

  close(): void {
    this.closed = true;
    this.goOffline();
  }
}

export function newStats() {
  const ackedMessages: { code: string; clientKey: string; groupCode: string; seq: number }[] = [];
  return { sends: 0, acked: 0, duplicatedLive: 0, outOfOrder: 0, reconnects: 0, ackedMessages };
}
