import { Inject, Injectable } from '@nestjs/common';
import { createPublicKey } from 'node:crypto';
import { isIP } from 'node:net';
import { APP_CONFIG } from '#shared/config/config.module';
import { allowsPrivatePushEndpoints, AppConfig } from '#shared/config/config.schema';
import { hostRefusal, resolvesPublicOnly } from '#shared/net/address-policy';
import { AuthUser } from '#shared/contracts/auth';
import { AppError, conflict, ErrorKey, notFound, unprocessable } from '../../common/errors';
import { HttpStatus } from '@nestjs/common';
import { moderatedInstanceFilter } from '../../common/moderator-scope';
import { NotificationsPageDto, RegisterPushDto } from './dto/push.dto';
import { PushNotificationsRepository } from '#shared/push/push-notifications.repository';
import { PushSubscriptionsRepository } from '#shared/push/push-subscriptions.repository';

/** Browsers (devices, profiles) one user keeps subscribed; registering one more drops the least recently used. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;

/** Whether a base64url string is an uncompressed point on P-256 (what RFC 8291 needs for ECDH). */
export function isP256Point(b64url: string): boolean {
  const raw = Buffer.from(b64url, 'base64url');
  if (raw.length !== 65 || raw[0] !== 0x04) return false;
  try {
    createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    return true;
  } catch {
    return false;
  }
}

@Injectable()
export class PushService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly subscriptions: PushSubscriptionsRepository,
    private readonly records: PushNotificationsRepository,
  ) {}

  /** The VAPID public key the browser subscribes with; 503 while push is not configured. */
  publicKey(): string {
    if (!this.config.VAPID_PUBLIC_KEY || !this.config.VAPID_PRIVATE_KEY) throw new AppError(HttpStatus.SERVICE_UNAVAILABLE, ErrorKey.Unavailable);
    return this.config.VAPID_PUBLIC_KEY;
  }

  async register(user: AuthUser, dto: RegisterPushDto): Promise<void> {
    const broken: string[] = [];
    const url = new URL(dto.endpoint);
    if (url.protocol !== 'https:') broken.push('VALIDATION.ENDPOINT.IS_URL');
    if (!allowsPrivatePushEndpoints(this.config) && !(await this.isPublicHost(url.hostname))) broken.push('VALIDATION.ENDPOINT.PRIVATE_HOST');
    if (url.username || url.password) broken.push('VALIDATION.ENDPOINT.IS_URL');
    if (!isP256Point(dto.keys.p256dh)) broken.push('VALIDATION.KEYS.P256DH.NOT_A_P256_KEY');
    if (broken.length) throw unprocessable([...new Set(broken)]);
    const stored = await this.subscriptions.register(user.id, dto.endpoint, dto.keys.p256dh.replace(/=+$/, ''), dto.keys.auth.replace(/=+$/, ''));
    if (!stored) throw conflict(ErrorKey.PushEndpointTaken);
    await this.subscriptions.keepNewest(user.id, MAX_SUBSCRIPTIONS_PER_USER);
  }

  /**
   * A literal address must be public, a name neither local nor resolving to any address that is not. A name
   * that does not resolve now is let through: the worker checks the address it dials at every send.
   */
  private async isPublicHost(hostname: string): Promise<boolean> {
    if (hostRefusal(hostname)) return false;
    if (isIP(hostname.replace(/^\[|\]$/g, ''))) return true;
    return (await resolvesPublicOnly(hostname)) !== false;
  }

  async unregister(user: AuthUser, endpoint: string): Promise<void> {
    await this.subscriptions.unregister(user.id, endpoint);
  }

  /** Why a user was or was not notified; instance admins see their instance's users only (others: 404). */
  async notifications(admin: AuthUser, userCode: string, page: number, pageSize: number): Promise<NotificationsPageDto> {
    const target = await this.records.userByCode(userCode);
    const scope = moderatedInstanceFilter(admin);
    if (!target || (scope !== null && target.instance_id !== scope)) throw notFound();
    const [rows, subscriptions] = await Promise.all([
      this.records.forUser(target.id, (page - 1) * pageSize, pageSize + 1),
      this.subscriptions.count(target.id),
    ]);
    return {
      user: userCode,
      subscriptions,
      entries: rows.slice(0, pageSize).map((r) => ({
        at: new Date(r.at).toISOString(),
        kind: r.kind,
        status: r.status,
        reason: r.reason,
        httpStatus: r.http_status,
        pushService: r.push_service,
        ref: r.ref,
        event: String(r.outbox_id),
      })),
      page,
      pageSize,
      hasMore: rows.length > pageSize,
    };
  }
}
