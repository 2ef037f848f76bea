import type { ModerationWarningPayload, ReportResolvedPayload } from './rest/reports';
import { ChatMessagePayload } from './events';
import type { CurrentInstanceResponse } from './rest/instances';
import type { JobResponse } from './rest/marketplace';

/**
 * The error envelope, the same as REST answers: `code` the HTTP status, `message` a translation key, and `data`
 * where the refusal has more to say: `brokenRules` on a 422, `retryAfter` (seconds) on a 429, `retryAfterMs` on a
 * 503 SHARED.ERROR.OVERLOADED (send the same again, same client key, then), `maxBytes` on a 413.
 */
export interface ErrorEnvelope {
  code: number;
  message: string;
  data?: { brokenRules?: string[]; retryAfter?: number; retryAfterMs?: number; maxBytes?: number; [key: string]: unknown };
}

/** Every acknowledgement: success with data, or the error envelope. */
export type Ack<T extends object = object> = ({ ok: true } & T) | { ok: false; error: ErrorEnvelope };

export interface UnreadCountPayload {
  total: number;
  groups: Record<string, number>;
}

export interface PresencePayload {
  userCode: string;
  online: boolean;
  lastActiveAt: string | null;
  /** whole minutes since the last activity; null if never seen */
  away: number | null;
  /** milliseconds since the last activity when this was read (null if never seen): clients count on from it */
  idleMs: number | null;
}

/** An offer's terms after a move: what a party's screen needs to show a revision without reloading. */
export interface OfferTerms {
  price: { amount: string; currency: string } | null;
  localPrice: { amount: string; currency: string } | null;
  /** UTC ISO */
  deadline: string | null;
  version: number;
  /** when the offer's new waiting status lapses (UTC ISO), null when it never does */
  lapsesAt: string | null;
}

export interface OfferStatusPayload extends Partial<OfferTerms> {
  jobCode: string;
  offerCode: string;
  status: number;
  previousStatus: number;
  /** null: a timer moved the offer (it expired, or a finalisation request was accepted for the customer) */
  actorCode: string | null;
  at: string;
}

/**
 * A change to a stored message: a translation that arrived later (translation only), or an edit by its author
 * (the new text and `editedAt`; the old translation is dropped with it).
 */
export interface MessageUpdatedPayload {
  groupCode: string;
  code: string;
  translation: string | null;
  message?: string;
  editedAt?: string | null;
  /**
   * Set on a machine translation that arrived after the message (sent only to the readers of its language): the
   * `editedAt` of the text it translates; a client holding another version of the message ignores it.
   */
  sourceEditedAt?: string | null;
}

/**
 * A job after its customer saved it (texts, deadline, whether it takes offers): title and description in the
 * job's default language, every version beside them, so each reader picks their own language.
 */
export type JobUpdatedPayload = JobResponse;

/**
 * An instance's look after an admin saved it. `stylesVersion` changes with every save: a client fetches
 * `/instance/styles.css` again when it differs from the one it holds.
 */
export interface InstanceUpdatedPayload extends CurrentInstanceResponse {
  stylesVersion: string;
}

export interface SyncAnswer {
  messages: ChatMessagePayload[];
  more: string[];
  missing: string[];
  edited: ChatMessagePayload[];
  editSeqs: Record<string, number>;
  /** translations into the reader's language stored after `afterTranslationSeq` of messages up to `afterSeq` */
  translated: MessageUpdatedPayload[];
  translationSeqs: Record<string, number>;
}

/** Server → client events (the architecture's realtime contract). */
export interface ServerToClientEvents {
  'message:new': (message: ChatMessagePayload) => void;
  'message:deleted': (payload: { groupCode: string; code: string }) => void;
  'message:updated': (payload: MessageUpdatedPayload) => void;
  'unread:count': (payload: UnreadCountPayload) => void;
  presence: (payload: PresencePayload) => void;
  typing: (payload: { groupCode: string; userCode: string }) => void;
  'offer:status': (payload: OfferStatusPayload) => void;
  'group:updated': (group: object) => void;
  /** to every connected user of the job's instance (its `instance:` room) */
  'job:updated': (job: JobUpdatedPayload) => void;
  /** to every connected user of that instance (its `instance:` room), never to another instance's */
  'instance:updated': (instance: InstanceUpdatedPayload) => void;
  /** to the reporter, when a moderator resolved their report */
  'report:resolved': (payload: ReportResolvedPayload) => void;
  /** to a user a moderator warned after a report */
  'moderation:warning': (payload: ModerationWarningPayload) => void;
  /** sent just before the server drops a socket whose token expired without auth:refresh */
  'auth:expired': (payload: { message: 'unauthorized' }) => void;
}

/** Client → server events; each takes an acknowledgement except typing and activity. */
export interface ClientToServerEvents {
  'message:send': (
    payload: { groupCode: string; clientKey: string; message: string; lang?: string; files?: string[]; replyToId?: string },
    ack: (res: Ack<{ message: ChatMessagePayload }>) => void,
  ) => void;
  /** The author edits a text message's text (validated like a send); a deleted message is 409. */
  'message:edit': (payload: { groupCode: string; code: string; message: string }, ack: (res: Ack<{ message: ChatMessagePayload }>) => void) => void;
  'group:read': (payload: { groupCode: string; seq: number }, ack: (res: Ack<{ unread: UnreadCountPayload }>) => void) => void;
  /**
   * Catch-up: at most 100 groups, each once (a repeated group is 422); at most 500 messages per answer (200
   * per group). `more` names the groups to ask again from the newest seq received (cut short or not reached),
   * `missing` those the caller may not read (a moderator: rooms they don't watch). 1 a second per user, bursts
   * of 10; faster is 429. A group asked with `afterEditSeq` also gets, in `edited`, its messages up to
   * `afterSeq` edited after that edit seq (they count in the same budget), and in `editSeqs` the edit seq to ask
   * from next time. Likewise `afterTranslationSeq`: in `translated`, the machine translations into the reader's
   * language stored since of its messages up to `afterSeq` (as `message:updated` would have carried them), and
   * in `translationSeqs` where to ask from next time.
   */
  sync: (
    payload: { groups: { groupCode: string; afterSeq: number; afterEditSeq?: number; afterTranslationSeq?: number }[] },
    ack: (res: Ack<SyncAnswer>) => void,
  ) => void;
  typing: (payload: { groupCode: string }) => void;
  /** a visible tab's interaction; `ago`: how long before the event it happened (the client's throttle held it back) */
  activity: (payload: { ago?: number }) => void;
  /** presence:watch and room:watch share a budget of 2 a second per user (bursts of 10); faster is 429. */
  'presence:watch': (payload: { userCodes: string[] }, ack: (res: Ack<{ statuses: PresencePayload[] }>) => void) => void;
  /**
   * Moderators in scope only (else 403); audited, and the participants see the group `watched`. While a watch
   * lasts, that moderator may read the room's messages and files (REST and sync) without being in it.
   */
  'room:watch': (payload: { groupCode: string }, ack: (res: Ack) => void) => void;
  'room:unwatch': (payload: { groupCode: string }, ack: (res: Ack) => void) => void;
  /**
   * Logging in after connecting, for a socket that connected with no token in the handshake (`auth: {token}` stays
   * the usual way): until it succeeds every other event is answered 401 (or dropped, without an ack), and a socket
   * not logged in within SOCKET_AUTH_TIMEOUT_MS (10 s) is disconnected. A bad token is 401 (the socket may try
   * again), a socket already logged in 409, a user with SOCKET_MAX_PER_USER sockets here 429.
   */
  auth: (payload: { token: string }, ack: (res: Ack<{ userCode: string; expiresAt: string }>) => void) => void;
  'auth:refresh': (payload: { token: string }, ack: (res: Ack<{ expiresAt: string }>) => void) => void;
}

export const userRoom = (userCode: string) => `user:${userCode}`;
export const groupRoom = (groupCode: string) => `group:${groupCode}`;
/** Every socket of a user of the instance joins it on connect (server-side name: the instance's database id). */
export const instanceRoom = (instanceId: string) => `instance:${instanceId}`;
