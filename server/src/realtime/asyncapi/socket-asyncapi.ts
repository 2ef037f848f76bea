import type { ChatMessagePayload, ChatReplyPreview, OfferNoteData } from '#shared/contracts/events';
import type { ChatUserResponse } from '#shared/contracts/rest/chat';
import { type ModerationWarningPayload, REPORT_ACTIONS, REPORT_REASONS, type ReportResolvedPayload } from '#shared/contracts/rest/reports';
import type { UserAvatar } from '#shared/contracts/rest/users';
import type {
  ClientToServerEvents,
  ErrorEnvelope,
  InstanceUpdatedPayload,
  MessageUpdatedPayload,
  OfferStatusPayload,
  PresencePayload,
  ServerToClientEvents,
  SyncAnswer,
  UnreadCountPayload,
} from '#shared/contracts/socket-events';
import { arrayOf, bool, int, mapOf, nullable, objectOf, ref, Schema, str } from './json-schema';

type Payload<F> = F extends (payload: infer P, ...rest: never[]) => void ? P : never;
type AckOf<F> = F extends (...args: infer Args) => void ? (Args extends [unknown, (res: infer A) => void] ? A : never) : never;
type Success<A> = Omit<Extract<A, { ok: true }>, 'ok'>;
type ClientEvent = keyof ClientToServerEvents;
type AckedEvent = { [E in ClientEvent]: [AckOf<ClientToServerEvents[E]>] extends [never] ? never : E }[ClientEvent];

const price = nullable(objectOf<{ amount: string; currency: string }>({ amount: str(), currency: str() }));

const isoTime = (description?: string): Schema => ({ ...str(description), format: 'date-time' });

/** Shared shapes (components.schemas), each typed against its TypeScript interface. */
const SCHEMAS: Record<string, Schema> = {
  ErrorEnvelope: objectOf<ErrorEnvelope>(
    {
      code: int('the HTTP status of the same refusal over REST'),
      message: str('a translation key (SHARED.ERROR.*)'),
      data: {
        type: 'object',
        additionalProperties: true,
        properties: {
          brokenRules: arrayOf(str(), 'on a 422: one translation key per broken rule (VALIDATION.<FIELD>.<RULE>)'),
          retryAfter: int('on a 429: seconds to wait'),
          retryAfterMs: int('on a 503 SHARED.ERROR.OVERLOADED: send the same again (same clientKey) after this many ms'),
          maxBytes: int('on a 413: the largest event, in bytes'),
        },
      },
    },
    ['data'],
    'The REST error envelope, as `error` of a refused acknowledgement `{ok: false, error}`',
  ),
  UserAvatar: objectOf<UserAvatar>({ code: str("'initials', 'gravatar' or 'custom'"), url: nullable(str()) }),
  ChatUser: objectOf<ChatUserResponse>({ code: str(), name: str(), surname: str(), avatar: ref('UserAvatar') }),
  ChatReplyPreview: objectOf<ChatReplyPreview>(
    {
      code: str(),
      seq: int(),
      type: int(),
      userCode: nullable(str()),
      message: str('at most 200 characters; empty for a deleted message'),
      files: int(),
      deleted: bool(),
      offerNote: { const: true },
    },
    ['offerNote'],
  ),
  OfferNoteData: objectOf<OfferNoteData>(
    {
      status: int('the status the move took the offer to'),
      terms: objectOf<NonNullable<OfferNoteData['terms']>>({ price, localPrice: price, deadline: nullable(isoTime()) }),
    },
    ['terms'],
    "An offer note's own move: its status and, on a first price, a revision or a final offer, the terms it set",
  ),
  ChatMessage: objectOf<ChatMessagePayload>(
    {
      code: str(),
      groupCode: str(),
      seq: int('gap-free per group, from 1'),
      type: int('0 unknown, 1 text, 2 final job offer request, 3 job offer approved'),
      message: str(),
      language: nullable(str()),
      translation: nullable(str("in the reader's language, where one is stored")),
      userCode: nullable(str()),
      user: nullable(ref('ChatUser')),
      createdAt: isoTime(),
      files: arrayOf(str(), 'file codes'),
      clientKey: nullable(str()),
      deleted: bool(),
      offerNote: { const: true, description: "the marketplace's offer notes only: the text is a translation key" },
      offerNoteData: ref('OfferNoteData'),
      offPlatform: { const: true, description: "sent in an offer's chat before Agreed with contact details or a request to pay off Parley" },
      replyTo: nullable(ref('ChatReplyPreview')),
      editedAt: nullable(isoTime()),
    },
    ['offerNote', 'offerNoteData', 'offPlatform', 'replyTo', 'editedAt'],
    'A chat message, the same shape REST answers',
  ),
  UnreadCount: objectOf<UnreadCountPayload>({ total: int(), groups: mapOf(int(), 'group code → unread count; only groups that changed') }),
  Presence: objectOf<PresencePayload>({
    userCode: str(),
    online: bool('holds a connected socket'),
    lastActiveAt: nullable(isoTime()),
    away: nullable(int('whole minutes since the last activity')),
    idleMs: nullable(int('ms since the last activity when this was read')),
  }),
};

const messageUpdated = objectOf<MessageUpdatedPayload>(
  { groupCode: str(), code: str(), translation: nullable(str()), message: str(), editedAt: nullable(isoTime()), sourceEditedAt: nullable(isoTime()) },
  ['message', 'editedAt', 'sourceEditedAt'],
);

/** Server → client events: name → payload schema. */
const SERVER_EVENTS: { [E in keyof ServerToClientEvents]: { summary: string; payload: Schema } } = {
  'message:new': {
    summary:
      'A message of a group the user is in (or watches), in seq order per group; not to the socket that sent it (it has the message in its acknowledgement)',
    payload: ref('ChatMessage'),
  },
  'message:deleted': {
    summary: 'A message was deleted',
    payload: objectOf<Payload<ServerToClientEvents['message:deleted']>>({ groupCode: str(), code: str() }),
  },
  'message:updated': {
    summary: 'An edit, or a translation that arrived later',
    payload: messageUpdated,
  },
  'unread:count': {
    summary: "The user's unread total and the groups that changed: at most one per socket every 100 ms (merged), the last always exact",
    payload: ref('UnreadCount'),
  },
  presence: { summary: 'A watched user came online, went offline or changed bucket', payload: ref('Presence') },
  typing: { summary: 'Someone types in a group', payload: objectOf<Payload<ServerToClientEvents['typing']>>({ groupCode: str(), userCode: str() }) },
  'offer:status': {
    summary: 'An offer moved',
    payload: objectOf<OfferStatusPayload>(
      {
        jobCode: str(),
        offerCode: str(),
        status: int(),
        previousStatus: int(),
        actorCode: nullable(str()),
        at: isoTime(),
        price,
        localPrice: price,
        deadline: nullable(isoTime()),
        version: int(),
        lapsesAt: nullable(isoTime()),
      },
      ['price', 'localPrice', 'deadline', 'version', 'lapsesAt'],
    ),
  },
  'group:updated': {
    summary: 'A group was created, renamed, watched or its people changed: the group as REST answers it (OpenAPI ChatGroupDto)',
    payload: { type: 'object', required: ['code'], properties: { code: str() } },
  },
  'job:updated': {
    summary: "A job of the user's instance was saved: the job as REST answers it (OpenAPI JobResponseDto)",
    payload: { type: 'object', required: ['code'], properties: { code: str() } },
  },
  'instance:updated': {
    summary: "The user's instance changed its look; fetch /instance/styles.css again when stylesVersion differs",
    payload: objectOf<InstanceUpdatedPayload>({ code: str(), name: str(), color: str(), accent: str(), logoUrl: nullable(str()), stylesVersion: str() }),
  },
  'report:resolved': {
    summary: "A moderator resolved the user's report: what was done",
    payload: objectOf<ReportResolvedPayload>({ code: str('the report'), action: { enum: [...REPORT_ACTIONS] }, reason: { enum: [...REPORT_REASONS] } }),
  },
  'moderation:warning': {
    summary: 'A moderator warned the user after a report',
    payload: objectOf<ModerationWarningPayload>({
      code: str("the pile's oldest report, as GET /api/reports/warnings/mine names the warning"),
      reason: { enum: [...REPORT_REASONS] },
      at: isoTime(),
    }),
  },
  'auth:expired': {
    summary: 'The token expired without auth:refresh; the socket is dropped next',
    payload: objectOf<Payload<ServerToClientEvents['auth:expired']>>({ message: { const: 'unauthorized' } }),
  },
};

const groupCode = str('a group code');

/** Client → server events: payload, and for acknowledged ones the success fields of the acknowledgement. */
const CLIENT_EVENTS: { [E in ClientEvent]: { summary: string; payload: Schema } & (E extends AckedEvent ? { ack: Schema } : object) } = {
  'message:send': {
    summary: 'Sends a message; a repeated clientKey is answered with the stored message and delivered to nobody again',
    payload: objectOf<Payload<ClientToServerEvents['message:send']>>(
      {
        groupCode,
        clientKey: str('unique per message of this author and group: 1–64 of A-Z a-z 0-9 _ -, optionally led by -'),
        message: str('at most 10,000 characters'),
        lang: str(),
        files: arrayOf(str(), 'codes of uploaded files'),
        replyToId: str('code of the quoted message'),
      },
      ['lang', 'files', 'replyToId'],
    ),
    ack: objectOf<Success<AckOf<ClientToServerEvents['message:send']>>>({ message: ref('ChatMessage') }),
  },
  'message:edit': {
    summary: "Edits one's own text message (a deleted one is 409)",
    payload: objectOf<Payload<ClientToServerEvents['message:edit']>>({ groupCode, code: str(), message: str() }),
    ack: objectOf<Success<AckOf<ClientToServerEvents['message:edit']>>>({ message: ref('ChatMessage') }),
  },
  'group:read': {
    summary: 'Moves the read marker forward to seq',
    payload: objectOf<Payload<ClientToServerEvents['group:read']>>({ groupCode, seq: int() }),
    ack: objectOf<Success<AckOf<ClientToServerEvents['group:read']>>>({ unread: ref('UnreadCount') }),
  },
  sync: {
    summary:
      'Catch-up: at most 100 groups, each once; at most 500 messages per answer (200 per group). Ask again for the groups in `more` from the newest seq received',
    payload: objectOf<Payload<ClientToServerEvents['sync']>>({
      groups: arrayOf(
        objectOf<Payload<ClientToServerEvents['sync']>['groups'][number]>({ groupCode, afterSeq: int(), afterEditSeq: int(), afterTranslationSeq: int() }, [
          'afterEditSeq',
          'afterTranslationSeq',
        ]),
      ),
    }),
    ack: objectOf<SyncAnswer>({
      messages: arrayOf(ref('ChatMessage')),
      more: arrayOf(str()),
      missing: arrayOf(str(), 'groups the caller may not read'),
      edited: arrayOf(ref('ChatMessage')),
      editSeqs: mapOf(int()),
      translated: arrayOf(messageUpdated, "late machine translations into the reader's language, as message:updated carries them"),
      translationSeqs: mapOf(int()),
    }),
  },
  typing: { summary: 'Typing in a group (no acknowledgement)', payload: objectOf<Payload<ClientToServerEvents['typing']>>({ groupCode }) },
  activity: {
    summary: "A visible tab's interaction (no acknowledgement); ago: ms since it happened",
    payload: objectOf<Payload<ClientToServerEvents['activity']>>({ ago: int() }, ['ago']),
  },
  'presence:watch': {
    summary: 'Watches the presence of people the user deals with (others are left out)',
    payload: objectOf<Payload<ClientToServerEvents['presence:watch']>>({ userCodes: arrayOf(str()) }),
    ack: objectOf<Success<AckOf<ClientToServerEvents['presence:watch']>>>({ statuses: arrayOf(ref('Presence')) }),
  },
  'room:watch': {
    summary: 'Moderators in scope: watch a group openly (else 403)',
    payload: objectOf<Payload<ClientToServerEvents['room:watch']>>({ groupCode }),
    ack: objectOf<Success<AckOf<ClientToServerEvents['room:watch']>>>({}),
  },
  'room:unwatch': {
    summary: 'Ends a watch',
    payload: objectOf<Payload<ClientToServerEvents['room:unwatch']>>({ groupCode }),
    ack: objectOf<Success<AckOf<ClientToServerEvents['room:unwatch']>>>({}),
  },
  auth: {
    summary: 'Logs in a socket that connected with no token (within SOCKET_AUTH_TIMEOUT_MS); until then every other event is 401',
    payload: objectOf<Payload<ClientToServerEvents['auth']>>({ token: str('the access token from POST /api/user/login') }),
    ack: objectOf<Success<AckOf<ClientToServerEvents['auth']>>>({ userCode: str(), expiresAt: isoTime() }),
  },
  'auth:refresh': {
    summary: 'Moves the socket to a fresh token of the same user before the old one expires',
    payload: objectOf<Payload<ClientToServerEvents['auth:refresh']>>({ token: str() }),
    ack: objectOf<Success<AckOf<ClientToServerEvents['auth:refresh']>>>({ expiresAt: isoTime() }),
  },
};

const DESCRIPTION = [
  'The realtime contract of Parley over Socket.IO (namespace `/`, path `/socket.io/`); the TypeScript form is',
  '`shared/contracts/socket-events.ts`. Log in with the handshake `auth: {token}` (the access token of `POST /api/user/login`),',
  'or connect with no token and send `auth` within 10 s. Every client event but `typing` and `activity` takes an acknowledgement:',
  '`{ok: true, ...}` with the fields below, or `{ok: false, error}` with the REST error envelope (`ErrorEnvelope`).',
  'An event over 64 KB is answered 413 and not run; sends, edits, sync and watches are rate limited per user (429).',
  '`message:new` is not replayed after a reconnect: `sync` from the newest seq held is the guarantee.',
].join('\n');

/** Operation and message ids: `message:send` → `messageSend`. */
const idOf = (event: string) => event.replace(/[:-](\w)/g, (_, c: string) => c.toUpperCase());

/** The AsyncAPI 3 document of the socket contract, served at /api/docs/asyncapi.json. */
export function socketAsyncApi(): Record<string, unknown> {
  const messages: Record<string, Schema> = {};
  const operations: Record<string, Schema> = {};
  const channel = { $ref: '#/channels/socket' };
  const inChannel = (id: string) => ({ $ref: `#/channels/socket/messages/${id}` });
  for (const [event, { summary, payload }] of Object.entries(SERVER_EVENTS)) {
    const id = idOf(event);
    messages[id] = { name: event, summary, payload };
    operations[id] = { action: 'send', channel, summary, messages: [inChannel(id)] };
  }
  for (const [event, spec] of Object.entries(CLIENT_EVENTS) as [string, { summary: string; payload: Schema; ack?: Schema }][]) {
    const id = idOf(event);
    messages[id] = { name: event, summary: spec.summary, payload: spec.payload };
    operations[id] = { action: 'receive', channel, summary: spec.summary, messages: [inChannel(id)] };
    if (spec.ack) {
      const ackId = `${id}Ack`;
      const success = {
        ...spec.ack,
        required: ['ok', ...((spec.ack.required as string[]) ?? [])],
        properties: { ok: { const: true }, ...(spec.ack.properties as object) },
      };
      const refused = objectOf<{ ok: false; error: ErrorEnvelope }>({ ok: { const: false }, error: ref('ErrorEnvelope') });
      messages[ackId] = { name: `${event} (acknowledgement)`, summary: `The acknowledgement of ${event}`, payload: { oneOf: [success, refused] } };
      operations[id].reply = { channel, messages: [inChannel(ackId)] };
    }
  }
  return {
    asyncapi: '3.0.0',
    info: { title: 'Parley realtime', version: '1', description: DESCRIPTION },
    defaultContentType: 'application/json',
    servers: {
      parley: {
        host: 'localhost:3000',
        protocol: 'ws',
        pathname: '/socket.io/',
        description: 'Socket.IO (Engine.IO 4): WebSocket, or HTTP long polling; the host is wherever the app is served',
        security: [{ $ref: '#/components/securitySchemes/accessToken' }],
      },
    },
    channels: { socket: { address: '/', title: 'The default Socket.IO namespace', messages } },
    operations,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        accessToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The access token, in the Socket.IO handshake `auth: {token}` or in the `auth` event after connecting',
        },
      },
    },
  };
}
