import type { ChatMessagePayload } from '#shared/contracts/events';
import type { SyncAnswer } from '#shared/contracts/socket-events';
import { io, ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import type { TestUser } from '../factories';

const ACK_TIMEOUT_MS = 3000;
/** After a 429 the app asks again after this long (SYNC_RETRY_MS in client/src/features/chat/chat.actions.ts). */
const SYNC_RETRY_MS = 1000;

export interface ChatClientOptions {
  /** Where to connect after the server dropped the socket; unset: the same address again, on the same socket. */
  reconnectTo?: () => string;
  /** The loopback address the sockets connect from (nginx's ip_hash keys on it). */
  localAddress?: string;
}

/** One message of the client's group as the server delivered it. */
export interface Delivered {
  seq: number;
  code: string;
}

/**
 * A chat client in one group, as the app's is (client/src/realtime/connection.ts, features/chat/chat.actions.ts):
 * after `io server disconnect` it connects again after a random 1–2 s, a connection that fails is retried by
 * socket.io's own back-off, and after every connect it syncs its group from the newest seq it holds (page after
 * page; a 429 asks again after a second). It sends one message after another (text = client key); a send without
 * an answer is sent again, same key, once connected again. What the server delivered is kept: the `message:new`
 * stream as it came, and every message held by seq (live or by sync).
 */
export class ChatClient {
  socket!: Socket;
  readonly acked = new Set<string>();
  /** When the server dropped the socket, each time. */
  readonly drops: number[] = [];
  /** Every connection made: when, and to which address. */
  readonly connects: { at: number; url: string }[] = [];
  /** The group's `message:new` events in arrival order. */
  readonly live: Delivered[] = [];
  /** The group's messages held, by seq (from `message:new`, `sync` and its own sends' acknowledgements). */
  readonly held = new Map<number, string>();
  /** Deliveries that contradict one held before: another code under the same seq. */
  readonly conflicts: string[] = [];
  /** Why connecting failed, each time (socket.io retries by itself). */
  readonly connectErrors: string[] = [];
  /** Sync answers other than ok or 429 (the app gives up until the next connect). */
  readonly syncRefusals: number[] = [];
  private url = '';
  private n = 0;
  private sending = false;
  private closed = false;
  private syncing = false;
  private syncAgain = false;

  constructor(
    private readonly user: TestUser,
    readonly group: string,
    private readonly options: ChatClientOptions = {},
  ) {}

  /** The address of the latest connection after the first; null until the client has come back once. */
  get reconnectedTo(): string | null {
    return this.connects.length > 1 ? this.connects[this.connects.length - 1].url : null;
  }

  /** The newest seq held: where a sync asks from, as the app's `highestSeq`. */
  get highestSeq(): number {
    return this.newestDelivered;
  }

  /** Connects; the first connection must succeed. */
  async open(url: string): Promise<void> {
    const socket = this.attach(url);
    await new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => {
        socket.close();
        reject(err);
      };
      socket.once('connect', () => {
        socket.off('connect_error', failed);
        resolve();
      });
      socket.once('connect_error', failed);
    });
  }

  private attach(url: string): Socket {
    this.url = url;
    // engine.io-client's websocket transport hands localAddress to ws (its types do not list it).
    const options: Partial<ManagerOptions & SocketOptions> & { localAddress?: string } = {
      auth: { token: this.user.token },
      transports: ['websocket'],
      reconnection: true,
      forceNew: true,
      ...(this.options.localAddress ? { localAddress: this.options.localAddress } : {}),
    };
    const socket = io(url, options);
    this.socket = socket;
    socket.on('connect', () => {
      this.connects.push({ at: Date.now(), url });
      void this.sync();
    });
    socket.on('connect_error', (err: Error & { description?: unknown }) => {
      this.connectErrors.push(`${err.message}${err.description ? ` (${String((err.description as { message?: string }).message ?? err.description)})` : ''}`);
    });
    socket.on('message:new', (m: ChatMessagePayload) => {
      if (m.groupCode !== this.group) return;
      this.live.push({ seq: m.seq, code: m.code });
      this.hold(m);
    });
    socket.on('disconnect', (reason) => {
      // socket.io reconnects by itself after a network loss, not after the server dropped the socket.
      if (reason !== 'io server disconnect' || this.closed) return;
      this.drops.push(Date.now());
      setTimeout(
        () => {
          if (this.closed || this.socket !== socket) return;
          const next = this.options.reconnectTo?.() ?? url;
          if (next === url) {
            socket.connect();
            return;
          }
          socket.removeAllListeners();
          socket.close();
          this.attach(next);
        },
        1000 + Math.random() * 1000,
      );
    });
    return socket;
  }

  /** The newest seq that came by `message:new` or `sync` (an own message's ack does not move where a sync starts). */
  private newestDelivered = 0;

  private hold(m: Pick<ChatMessagePayload, 'seq' | 'code'>, delivered = true): void {
    if (delivered) this.newestDelivered = Math.max(this.newestDelivered, m.seq);
    const before = this.held.get(m.seq);
    if (before !== undefined && before !== m.code) this.conflicts.push(`seq ${m.seq}: ${before}, then ${m.code}`);
    this.held.set(m.seq, m.code);
  }

  /** Everything after the newest seq held, until the server names no more; a connect meanwhile syncs again after. */
  private async sync(): Promise<void> {
    if (this.syncing) {
      this.syncAgain = true;
      return;
    }
    this.syncing = true;
    try {
      const socket = this.socket;
      for (let more = true; more && socket.connected && !this.closed;) {
        const res = (await socket
          .timeout(ACK_TIMEOUT_MS)
          .emitWithAck('sync', { groups: [{ groupCode: this.group, afterSeq: this.highestSeq }] })
          .catch(() => null)) as ({ ok: true } & SyncAnswer) | { ok: false; error: { code: number } } | null;
        // No answer: the socket went; its next connect syncs again.
        if (!res) return;
        if (!res.ok) {
          if (res.error.code !== 429) return void this.syncRefusals.push(res.error.code);
          await new Promise((resolve) => setTimeout(resolve, SYNC_RETRY_MS));
          continue;
        }
        res.messages.forEach((m) => this.hold(m));
        more = res.more.includes(this.group);
      }
    } finally {
      this.syncing = false;
      if (this.syncAgain && !this.closed) {
        this.syncAgain = false;
        void this.sync();
      }
    }
  }

  /** Sends one message after another until stopped; a send without an answer is sent again, same key, once connected. */
  async run(pauseMs = 20): Promise<void> {
    this.sending = true;
    while (this.sending) {
      const key = `-${this.user.user.code.slice(0, 8)}-${this.n++}`;
      for (;;) {
        if (!this.sending) return;
        if (!this.socket.connected) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        const ack = await this.socket
          .timeout(ACK_TIMEOUT_MS)
          .emitWithAck('message:send', { groupCode: this.group, clientKey: key, message: key })
          .catch(() => null);
        if (ack?.ok) {
          this.acked.add(key);
          // As the app does: the sending socket has its own message in the acknowledgement only.
          this.hold(ack.message, false);
          break;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }

  /** Stops sending; the socket stays open, so deliveries still arrive. */
  stopSending(): void {
    this.sending = false;
  }

  close(): void {
    this.sending = false;
    this.closed = true;
    this.socket?.close();
  }
}
