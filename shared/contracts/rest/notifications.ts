/** REST contracts of notification settings (server/src/modules/notifications); the DTOs implement these. */

/** What a notification is about. */
export type NotificationKind = 'messages' | 'offers' | 'payments';
/** How it reaches someone. */
export type NotificationChannel = 'push' | 'email';

export const NOTIFICATION_KINDS: readonly NotificationKind[] = ['messages', 'offers', 'payments'];
export const NOTIFICATION_CHANNELS: readonly NotificationChannel[] = ['push', 'email'];

export type KindSwitches = Record<NotificationKind, boolean>;

/** Push stays silent from `start` to `end` ("HH:MM", the user's own timezone); `end` before `start` spans midnight. */
export interface QuietHours {
  start: string;
  end: string;
}

export interface NotificationSettingsResponse {
  push: KindSwitches;
  email: KindSwitches;
  /** null: no quiet hours */
  quietHours: QuietHours | null;
}

export interface ChatNotificationsResponse {
  /** muted now (for good or snoozed) */
  muted: boolean;
  /** the end of a snooze; null while not muted or muted until turned back on */
  mutedUntil: string | null;
}
