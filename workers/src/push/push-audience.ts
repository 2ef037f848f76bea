import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import type { NotificationKind } from '#shared/contracts/rest/notifications';
import { channelBlocked } from '#shared/notifications/notification-settings';
import { NotificationSettingsRepository } from '#shared/notifications/notification-settings.repository';
import { PresenceService } from '#shared/presence/presence.service';
import { SubscriptionRow, PushSubscriptionsRepository } from '#shared/push/push-subscriptions.repository';
import { PushSender } from './push-sender';

/** Someone a notification is about to reach, as a decider names them. */
export interface Recipient {
  userId: string;
  userCode: string;
  lang: string;
  /** the decider's own reason to skip them, decided before presence and subscriptions are looked at */
  skip?: string;
}

/** Who of a decider's recipients can be pushed, and why the others are not. */
export interface Audience {
  /** recipients with a subscription, each with the reason they are skipped (null: push them) */
  recipients: (Recipient & { reason: string | null })[];
  subscriptions: SubscriptionRow[];
  /** recipients without a subscription: counted as skipped, never recorded */
  unsubscribed: number;
}

/**
 * The rules every kind of push shares, applied after a decider's own: nobody without a subscription, nobody who
 * switched push off for this kind or is in their quiet hours (NotificationSettingsRepository), nobody online and
 * active (PUSH_AWAY_AFTER), nothing while VAPID keys are missing. A decider calls this; nobody else.
 */
@Injectable()
export class PushAudience {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly subscriptions: PushSubscriptionsRepository,
    private readonly presence: PresenceService,
    private readonly sender: PushSender,
    private readonly settings: NotificationSettingsRepository,
  ) {}

  /**
   * `kind`: what the push is about (the user's switch for it); `skipAll`: one reason for everyone (presence is
   * not asked); `leftOut`: recipients the decider already knew had no subscription.
   */
  async of(candidates: Recipient[], kind: NotificationKind, skipAll?: string, leftOut = 0): Promise<Audience> {
    // Someone without a subscription can't be pushed. Recording that per message and member would write a row for
    // nearly every chat message (most people never subscribe); the admin view shows their subscription count
    // instead, and the skip is only counted.
    const subscriptions = await this.subscriptions.forUsers(candidates.map((r) => r.userId));
    const subscribed = new Set(subscriptions.map((s) => s.user_id));
    const reachable = candidates.filter((r) => subscribed.has(r.userId));
    const unsubscribed = leftOut + candidates.length - reachable.length;
    if (reachable.length === 0) return { recipients: [], subscriptions, unsubscribed };
    const online = skipAll ? new Set<string>() : await this.onlineCodes(reachable.map((r) => r.userCode));
    const settings = skipAll ? new Map() : await this.settings.forUsers(reachable.map((r) => r.userId));
    const now = new Date();
    const byChoice = (r: Recipient) => {
      const own = settings.get(r.userId);
      return own ? channelBlocked(own, 'push', kind, now) : null;
    };
    const recipients = reachable.map((r) => ({
      ...r,
      reason: skipAll ?? r.skip ?? byChoice(r) ?? (online.has(r.userCode) ? 'online' : !this.sender.configured ? 'not-configured' : null),
    }));
    return { recipients, subscriptions, unsubscribed };
  }

  private async onlineCodes(codes: string[]): Promise<Set<string>> {
    const statuses = await this.presence.statuses(codes);
    const awayMs = this.config.PUSH_AWAY_AFTER * 1000;
    const now = Date.now();
    return new Set(statuses.filter((s) => s.online && (s.lastActiveAt === null || now - Date.parse(s.lastActiveAt) < awayMs)).map((s) => s.userCode));
  }
}
