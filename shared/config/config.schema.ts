import { isIP } from 'node:net';
import { z } from 'zod';
import { TRANSLATION_CONFIG } from './translation-config';

const seconds = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** Express' named ranges, and an address or CIDR block. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (item: string) => {
  if (PROXY_NAMES.has(item)) return true;
  const [address, bits, ...rest] = item.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
};

/**
 * Which X-Forwarded-For hops to believe: `false`/`0` none (the socket's peer is the client), a number of
 * proxy hops in front of the app (`1` for docker-compose's nginx), or the proxies' addresses/CIDRs
 * (comma-separated; Express' `loopback`, `linklocal`, `uniquelocal` too). `true` would trust every hop, so
 * a client could choose its own IP by sending X-Forwarded-For: outside production it means `1`, in
 * production it is refused (see configSchema's refinement).
 */
export const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): false | number | string[] | 'trust-all' => {
    const value = raw.trim().toLowerCase();
    if (value === 'false' || value === '0') return false;
    if (value === 'true') return 'trust-all';
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const items = value
      .split(',')
      .map((i) => i.trim())
      .filter(Boolean);
    if (items.length && items.every(isProxyAddress)) return items;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be false, a number of proxy hops (e.g. 1) or the proxies' addresses/CIDRs" });
    return z.NEVER;
  });

/** One OpenID Connect provider of AUTH_PROVIDERS; its endpoints and keys come from the issuer's discovery document. */
const authProvider = z.object({
  name: z
    .string()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9_-]+$/),
  label: z.string().min(1).max(80),
  issuer: z.string().url(),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional(),
  scope: z.string().default('openid email profile'),
  /** When set, only e-mail addresses of these domains may sign in (and be created) through this provider. */
  emailDomains: z.array(z.string().min(1).toLowerCase()).optional(),
  /** The code of the instance whose sign-in page offers it; unset: every instance. */
  instance: z.string().min(1).optional(),
  /** false keeps the configuration but turns sign-in with it off (listed nowhere, refused with a clear error). */
  enabled: z.boolean().default(true),
});

/** Every environment variable the server and the worker read, with its default. */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Unset: 127.0.0.1 outside production (see listenHost), every interface in production. */
  HOST: z.string().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.string().url().optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  MIGRATIONS_RUN: bool(true),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL'),
  REDIS_PREFIX: z.string().min(1).max(64).default('parley:'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters'),
  ACCESS_TOKEN_TTL: seconds(900),
  REFRESH_TOKEN_TTL: seconds(24 * 3600),
  REFRESH_TOKEN_TTL_REMEMBER: seconds(30 * 24 * 3600),
  AUTH_RATE_LIMIT_IP: z.coerce.number().int().positive().default(30),
  AUTH_RATE_LIMIT_EMAIL: z.coerce.number().int().positive().default(10),
  AUTH_RATE_LIMIT_WINDOW: seconds(15 * 60),
  AUTH_PROVIDERS: z
    .string()
    .default('[]')
    .transform((raw, ctx) => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'must be a JSON array' });
        return z.NEVER;
      }
    })
    .pipe(z.array(authProvider)),
  /** Seconds an identity provider has to answer one call (discovery, token, user-info, revocation). */
  AUTH_PROVIDER_TIMEOUT: seconds(10),
  BODY_LIMIT: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'must look like 100kb or 1mb')
    .default('1mb'),
  TRUST_PROXY: trustProxy,
  CLIENT_DIST: z.string().default('client/dist'),
  DEFAULT_INSTANCE_NAME: z.string().min(1).max(100).default('Parley'),
  /**
   * Whether the first user registered on the DEFAULT instance becomes its instance admin (a fresh
   * `npm start`). Unset: yes outside production, no in production, where admins are appointed. Other
   * instances never make anyone admin by registering first.
   */
  FIRST_USER_ADMIN: z.enum(['true', 'false', '1', '0']).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().default('mailto:admin@parley.local'),
  PRESENCE_OFFLINE_GRACE_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** a server that stops refreshing its fan-out registration (a crash) is skipped by the fan-out after this long */
  FANOUT_NODE_TTL_MS: z.coerce.number().int().min(500).max(600_000).default(30_000),
  /**
   * Sockets one user may hold on one server process (each tab holds one); the next handshake is refused with
   * connect_error `too many sockets`. Per process, like the socket budgets: a cluster of N processes allows N times it.
   */
  /** the server's Prometheus endpoint (GET /metrics) on a port of its own; unset: no endpoint */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** the worker's Prometheus endpoint; unset: no endpoint */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** the address both metrics endpoints listen on: loopback unless a scraper elsewhere must reach them */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** when set, a scrape must send Authorization: Bearer <token> */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * OpenTelemetry traces (the standard variables, read by the SDK too): exported over OTLP/HTTP when either endpoint
   * is set; unset: tracing is off and its SDK never loads. The base endpoint gets /v1/traces appended, the traces one is used as is.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
  /** http/protobuf (the standard's default) or http/json; gRPC is not built in */
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/protobuf', 'http/json']).optional(),
  /** the service.name of the spans; unset: parley-server or parley-worker */
  OTEL_SERVICE_NAME: z.string().min(1).optional(),
  /** true: no tracing even with an endpoint set */
  OTEL_SDK_DISABLED: bool(false),
  /** after SIGTERM, how long (ms) readiness answers 503 before the sockets are sent elsewhere: a load balancer's probe interval or two */
  DRAIN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(0),
  /** after the grace, the sockets are disconnected at random moments within this window (ms), so they do not all reconnect at once */
  DRAIN_SPREAD_MS: z.coerce.number().int().min(0).max(120_000).default(3000),
  /** after the drain, how long (ms) closing may take before the process exits anyway (exit code 1) */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300_000).default(15_000),
  SOCKET_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(20),
  /** how long a socket that connected without a token may take to log in with the `auth` event before it is disconnected (ms) */
  SOCKET_AUTH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  CHAT_MAX_PARTICIPANTS: z.coerce.number().int().min(2).max(10_000).default(500),
  /** the most people (besides the caller) one call may name when starting a chat, opening a target's or adding to one */
  CHAT_PEOPLE_PER_CALL: z.coerce.number().int().min(1).max(10_000).default(50),
  /** the most people one person may bring into one group, over all their calls */
  CHAT_PEOPLE_PER_GROUP: z.coerce.number().int().min(1).max(10_000).default(100),
  /** new chats per user and window (reusing a direct chat that exists is free) */
  CHAT_GROUP_CREATE_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  CHAT_GROUP_CREATE_RATE_WINDOW: seconds(3600),
  /** people a user may put in chats per window, counted one by one, in new chats and in running ones */
  CHAT_PEOPLE_ADD_RATE_LIMIT: z.coerce.number().int().positive().default(300),
  CHAT_PEOPLE_ADD_RATE_WINDOW: seconds(24 * 3600),
  /** renames (PATCH /api/message/groups/{id}) per user and window: each one is pushed to every participant */
  CHAT_RENAME_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  CHAT_RENAME_RATE_WINDOW: seconds(60),
  /** REST sends (and chats started with a message) per user and window: 30 in 3 s, the socket's 10/s with its bursts */
  CHAT_SEND_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  CHAT_SEND_RATE_WINDOW: seconds(3),
  /**
   * Send admission (SendAdmission): a node refuses chat sends with a retryable 503 while one of its signals is
   * above its limit (ms; 0 leaves the signal out), and admits them again once all are below OVERLOAD_CLEAR_FRACTION
   * of their limits. The fan-out lag is the age of the deliveries its reader makes now. The insert wait's limit is
   * short: under sustained overload the queue sits at its limit, so every ms of it is latency that buys no throughput
   * (docs/message-path.md, "How it fails").
   */
  OVERLOAD_FANOUT_LAG_MS: z.coerce.number().int().min(0).max(600_000).default(250),
  OVERLOAD_INSERT_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(150),
  OVERLOAD_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
  OVERLOAD_CLEAR_FRACTION: z.coerce.number().gt(0).max(1).default(0.4),
  /** what a refusal tells the client to wait before sending again (it adds back-off and jitter) */
  OVERLOAD_RETRY_AFTER_MS: z.coerce.number().int().min(1).max(60_000).default(1000),
  /** uploads per user and window */
  UPLOAD_RATE_LIMIT: z.coerce.number().int().positive().default(60),
  UPLOAD_RATE_WINDOW: seconds(60),
  /** jobs posted per user and window */
  JOB_CREATE_RATE_LIMIT: z.coerce.number().int().positive().default(20),
  JOB_CREATE_RATE_WINDOW: seconds(60 * 60),
  /** offers made per user and window (a withdrawn offer made again counts again) */
  OFFER_CREATE_RATE_LIMIT: z.coerce.number().int().positive().default(30),
  OFFER_CREATE_RATE_WINDOW: seconds(10 * 60),
  /** price changes of offers (the first pricing and revisions) per user and window; each posts a chat note and a push */
  OFFER_REVISE_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  OFFER_REVISE_RATE_WINDOW: seconds(60),
  /** offers withdrawn per user and window */
  OFFER_WITHDRAW_RATE_LIMIT: z.coerce.number().int().positive().default(10),
  OFFER_WITHDRAW_RATE_WINDOW: seconds(10 * 60),
  /** days after an offer closes during which its parties may review each other; an instance may set its own (instance.review_window_days) */
  REVIEW_WINDOW_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  FILE_MAX_SIZE: z.coerce
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  FILES_DIR: z.string().min(1).default('.data/files'),
  /**
   * Largest decoded size of an image (width × height × channels × bytes per channel × frames), read from its
   * header before any decode; above it the upload is refused (422 VALIDATION.FILE.IMAGE_TOO_LARGE). 128 MiB
   * holds a 33-megapixel RGBA or a 44-megapixel RGB photo.
   */
  FILE_IMAGE_MAX_DECODED_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(128 * 1024 * 1024),
  /** an image spends one upload of UPLOAD_RATE_LIMIT per this many decoded bytes (rounded up), at least one */
  FILE_IMAGE_BUDGET_UNIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  /** bytes of uploads each user may keep; an upload past it is refused (422 VALIDATION.FILE.QUOTA_EXCEEDED) */
  FILE_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024 * 1024),
  /** image renditions made at once by one server, and held (running or waiting) by its queue */
  FILE_RENDITION_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  FILE_RENDITION_QUEUE: z.coerce.number().int().min(1).max(10_000).default(64),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(10),
  HEARTBEAT_INTERVAL: seconds(60),
  /** renewed every half of it while the job runs; a dead worker's job is free once it lapses */
  WORKER_LOCK_DURATION_MS: z.coerce.number().int().min(1000).max(600_000).default(6000),
  /**
   * a job marked by one check and found without its lock by the next goes back to wait: a takeover by a running
   * worker takes lock + interval; by one started after the crash, its boot + two intervals (whichever is later)
   */
  WORKER_STALLED_INTERVAL_MS: z.coerce.number().int().min(500).max(600_000).default(1500),
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  OUTBOX_BATCH: z.coerce.number().int().min(1).max(5000).default(500),
  /** dispatched outbox rows are kept this long (for replays and inspection), then deleted */
  OUTBOX_RETENTION_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(72),
  PUSH_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  PUSH_AWAY_AFTER: z.coerce.number().int().min(0).default(300),
  PUSH_TTL: z.coerce
    .number()
    .int()
    .min(0)
    .max(28 * 24 * 3600)
    .default(24 * 3600),
  PUSH_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  PUSH_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
  /** smtp:// or smtps:// (user:password@host:port); unset: every e-mail is written as a .eml file to EMAIL_DIR (refused in production) */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Parley <no-reply@parley.localhost>'),
  EMAIL_DIR: z.string().min(1).default('.data/mail'),
  /** a message still unread this long after it arrived is e-mailed (one e-mail per person for every such chat) */
  EMAIL_UNREAD_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3_600_000)
    .default(600_000),
  /** an offer move that waits for someone (or a payment due) is e-mailed to them when they have not moved it on this long after */
  EMAIL_OFFER_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3_600_000)
    .default(600_000),
  /** how often the worker looks for unread messages that are due */
  EMAIL_SCAN_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
  EMAIL_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(8),
  /** e-mails one worker sends at once (over at most EMAIL_SMTP_CONNECTIONS pooled SMTP connections) */
  EMAIL_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(20),
  /** SMTP connections one worker keeps open and reuses (Nodemailer's pool) */
  EMAIL_SMTP_CONNECTIONS: z.coerce.number().int().min(1).max(100).default(5),
  EMAIL_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(30_000),
  /** how long an unsubscribe link in an e-mail works */
  EMAIL_UNSUBSCRIBE_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(60),
  PUSH_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(5000),
  /** how long the worker waits for a server to apply a due offer timer before the job is retried */
  OFFER_TIMER_CONFIRM_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  /** attempts of a due offer timer no server applied (exponential back-off from OFFER_TIMER_BACKOFF_MS) */
  OFFER_TIMER_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(20),
  OFFER_TIMER_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(2000),
  PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  PUSH_SUBSCRIPTION_MAX_IDLE_DAYS: z.coerce.number().int().min(1).max(3650).default(60),
  /** notification lifecycle records (GET /api/admin/notifications) are kept this long */
  PUSH_RECORD_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  PUSH_PRUNE_INTERVAL: seconds(6 * 3600),
  PUSH_CA_FILE: z.string().optional(),
  /**
   * Whether push endpoints may point at loopback, private, link-local, CGNAT or unique-local addresses or at
   * local names; unset: only outside production (the tests' local push service runs on loopback).
   */
  PUSH_ALLOW_PRIVATE_ENDPOINTS: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
  QUEUE_BOARD_TTL: seconds(15 * 60),
  ...TRANSLATION_CONFIG,
});

/**
 * The interface the server listens on when HOST is unset: loopback outside production, where the first user
 * registered becomes admin (FIRST_USER_ADMIN) and nobody else on the network should reach a development
 * server; every interface in production, where a proxy or a container's port mapping is in front.
 * scripts/launch.mts applies the same rule, so it can say where the server listens.
 */
export function listenHost(nodeEnv: string | undefined): string {
  return nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1';
}

/** Settings that are only unsafe in production are refused there, with what to set instead. */
export const validatedConfigSchema = configSchema
  .superRefine((config, ctx) => {
    if (config.NODE_ENV === 'production' && config.TRUST_PROXY === 'trust-all') {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ['TRUST_PROXY'],
        message: 'true trusts every X-Forwarded-For hop, so clients choose their own IP: set the number of proxies in front (e.g. 1) or their addresses',
      });
    }
  })
  .transform((config) => ({
    ...config,
    HOST: config.HOST ?? listenHost(config.NODE_ENV),
    TRUST_PROXY: config.TRUST_PROXY === 'trust-all' ? 1 : config.TRUST_PROXY,
    FIRST_USER_ADMIN:
      config.FIRST_USER_ADMIN === undefined ? config.NODE_ENV !== 'production' : config.FIRST_USER_ADMIN === 'true' || config.FIRST_USER_ADMIN === '1',
  }));

export type AppConfig = z.infer<typeof validatedConfigSchema>;
export type AuthProviderConfig = z.infer<typeof authProvider>;

/** Whether web-push endpoints may lie inside the network (PUSH_ALLOW_PRIVATE_ENDPOINTS, else: not in production). */
export function allowsPrivatePushEndpoints(config: Pick<AppConfig, 'NODE_ENV' | 'PUSH_ALLOW_PRIVATE_ENDPOINTS'>): boolean {
  return config.PUSH_ALLOW_PRIVATE_ENDPOINTS ?? config.NODE_ENV !== 'production';
}
