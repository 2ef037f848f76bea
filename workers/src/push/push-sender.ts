import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';
import webpush, { WebPushError } from 'web-push';
import { APP_CONFIG } from '#shared/config/config.module';
import { allowsPrivatePushEndpoints, AppConfig } from '#shared/config/config.schema';
import { hostRefusal, PRIVATE_ADDRESS, publicOnlyLookup } from '#shared/net/address-policy';
import { ConfigError } from '#shared/config/load-config';
import { SendPushPayload } from '#shared/contracts/queues';

const VAPID_TOKEN_LIFETIME_S = 12 * 3600;
const VAPID_TOKEN_REUSE_MS = 6 * 3600 * 1000;

export type SendOutcome =
  | { kind: 'sent'; status: number }
  | { kind: 'gone'; status: number }
  | { kind: 'rate-limited'; status: number; retryAfterMs: number | null }
  | { kind: 'server-error'; status: number }
  | { kind: 'rejected'; status: number }
  | { kind: 'network'; message: string }
  /** the endpoint is (or resolves to) an address inside the network: nothing was sent */
  | { kind: 'blocked'; reason: string };

/** Retry-After as seconds or an HTTP date (RFC 9110), in ms from now; null when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Push settings a production worker must not run with; main.ts checks them before anything starts. */
export function checkPushConfig(config: Pick<AppConfig, 'NODE_ENV' | 'PUSH_CA_FILE'>): void {
  if (config.PUSH_CA_FILE && config.NODE_ENV === 'production') {
    throw new ConfigError('Invalid configuration:\n  PUSH_CA_FILE: only for tests (a local push service); not allowed in production');
  }
}

/**
 * Sends one web push with web-push: aes128gcm, VAPID (a fresh ES256 JWT per push service origin), TTL,
 * Urgency and Topic, over a keep-alive agent. PUSH_CA_FILE adds trusted CAs for the tests' local push service
 * (self-signed, on loopback); production refuses it, so a real deployment trusts the public roots only.
 */
@Injectable()
export class PushSender implements OnApplicationShutdown {
  private readonly agent: Agent;
  private readonly vapid = new Map<string, { value: string; renewAt: number }>();
  private readonly publicOnly: boolean;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    checkPushConfig(config);
    const extraCa = config.PUSH_CA_FILE ? [readFileSync(config.PUSH_CA_FILE, 'utf8')] : [];
    this.publicOnly = !allowsPrivatePushEndpoints(config);
    this.agent = new Agent({
      keepAlive: true,
      maxSockets: Math.max(config.PUSH_CONCURRENCY, 8),
      ...(extraCa.length ? { ca: [...rootCertificates, ...extraCa] } : {}),
      // Every connection dials only public addresses of the endpoint's name, checked as it connects (a name
      // that resolves inside, or is re-pointed there after registration, fails).
      ...(this.publicOnly ? { lookup: publicOnlyLookup() } : {}),
    });
  }

  get configured(): boolean {
    return Boolean(this.config.VAPID_PUBLIC_KEY && this.config.VAPID_PRIVATE_KEY);
  }

  async send(subscription: { endpoint: string; p256dh: string; auth: string }, body: string, job: SendPushPayload): Promise<SendOutcome> {
    // A literal IP is dialled without a lookup, so it is checked here.
    const refusal = this.publicOnly ? hostRefusal(new URL(subscription.endpoint).hostname) : null;
    if (refusal) return { kind: 'blocked', reason: refusal };
    try {
      const res = await webpush.sendNotification({ endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } }, body, {
        // Our own (cached) VAPID header instead of web-push signing a fresh ES256 JWT for every push
        // (no vapidDetails here, and web-push's global ones are never set).
        headers: { Authorization: this.vapidAuthorization(subscription.endpoint) },
        TTL: this.config.PUSH_TTL,
        urgency: job.urgency,
        topic: job.topic,
        contentEncoding: 'aes128gcm',
        agent: this.agent,
        timeout: this.config.PUSH_TIMEOUT_MS,
      });
      return { kind: 'sent', status: res.statusCode };
    } catch (err) {
      if (err instanceof WebPushError) {
        const status = err.statusCode;
        if (status === 404 || status === 410) return { kind: 'gone', status };
        if (status === 429) return { kind: 'rate-limited', status, retryAfterMs: retryAfterMs(err.headers['retry-after']) };
        if (status >= 500) return { kind: 'server-error', status };
        return { kind: 'rejected', status };
      }
      if ((err as NodeJS.ErrnoException).code === PRIVATE_ADDRESS) return { kind: 'blocked', reason: 'private-address' };
      return { kind: 'network', message: (err as Error).message };
    }
  }

  /**
   * The VAPID Authorization header for the endpoint's push service (the JWT's aud is its origin). Signing is
   * two thirds of web-push's CPU per push (0.4 of 0.6 ms), so one token per origin is reused: it says exp =
   * 12 h from signing (push services refuse more than 24 h) and is replaced after 6 h.
   */
  private vapidAuthorization(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const now = Date.now();
    const cached = this.vapid.get(audience);
    if (cached && cached.renewAt > now) return cached.value;
    const headers = webpush.getVapidHeaders(
      audience,
      this.config.VAPID_SUBJECT,
      this.config.VAPID_PUBLIC_KEY!,
      this.config.VAPID_PRIVATE_KEY!,
      'aes128gcm',
      Math.floor(now / 1000) + VAPID_TOKEN_LIFETIME_S,
    );
    if (this.vapid.size > 1000) this.vapid.clear();
    this.vapid.set(audience, { value: headers.Authorization, renewAt: now + VAPID_TOKEN_REUSE_MS });
    return headers.Authorization;
  }

  onApplicationShutdown(): void {
    this.agent.destroy();
  }
}
