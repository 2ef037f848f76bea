import type { KindSwitches, NotificationChannel, NotificationKind, NotificationSettingsResponse, QuietHours } from '../contracts/rest/notifications';

/** One user's settings as the deciders read them (minutes of the day for quiet hours). */
export interface UserNotificationSettings {
  push: KindSwitches;
  email: KindSwitches;
  quiet: { start: number; end: number } | null;
  /** IANA name; quiet hours are read in it */
  timezone: string;
}

export const ALL_ON: KindSwitches = { messages: true, offers: true, payments: true };

export const defaultSettings = (timezone = 'UTC'): UserNotificationSettings => ({ push: { ...ALL_ON }, email: { ...ALL_ON }, quiet: null, timezone });

export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
export const hhmmOf = (minutes: number): string => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Minutes since midnight at `at` in `timezone` (UTC when the name is unknown). */
export function localMinutes(at: Date, timezone: string): number {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', { timeZone: timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  } catch {
    return at.getUTCHours() * 60 + at.getUTCMinutes();
  }
  const value = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return value('hour') * 60 + value('minute');
}

/** Whether `at` falls in the quiet hours (start inclusive, end exclusive; end before start spans midnight). */
export function isQuiet(settings: UserNotificationSettings, at: Date): boolean {
  if (!settings.quiet) return false;
  const { start, end } = settings.quiet;
  if (start === end) return false;
  const now = localMinutes(at, settings.timezone);
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/**
 * Why this kind on this channel does not reach the user now, or null when it does. Quiet hours are for push only:
 * an e-mail waits in the inbox anyway.
 */
export function channelBlocked(
  settings: UserNotificationSettings,
  channel: NotificationChannel,
  kind: NotificationKind,
  at: Date,
): 'setting-off' | 'quiet-hours' | null {
  if (!settings[channel][kind]) return 'setting-off';
  if (channel === 'push' && isQuiet(settings, at)) return 'quiet-hours';
  return null;
}

export function toResponse(settings: UserNotificationSettings): NotificationSettingsResponse {
  const quietHours: QuietHours | null = settings.quiet ? { start: hhmmOf(settings.quiet.start), end: hhmmOf(settings.quiet.end) } : null;
  return { push: { ...settings.push }, email: { ...settings.email }, quietHours };
}
