import { channelBlocked, defaultSettings, hhmmOf, isQuiet, localMinutes, minutesOf, toResponse, UserNotificationSettings } from './notification-settings';

const at = (iso: string) => new Date(iso);
const quiet = (start: string, end: string, timezone = 'UTC'): UserNotificationSettings => ({
  ...defaultSettings(timezone),
  quiet: { start: minutesOf(start), end: minutesOf(end) },
});

describe('notification settings as the push and e-mail deciders read them', () => {
  it('lets everything through by default', () => {
    for (const kind of ['messages', 'offers', 'payments'] as const) {
      expect(channelBlocked(defaultSettings(), 'push', kind, at('2026-03-02T03:00:00Z'))).toBeNull();
      expect(channelBlocked(defaultSettings(), 'email', kind, at('2026-03-02T03:00:00Z'))).toBeNull();
    }
  });

  it('blocks a kind switched off on that channel only', () => {
    const noChatPush = { ...defaultSettings(), push: { messages: false, offers: true, payments: true } };
    const noon = at('2026-03-02T12:00:00Z');
    expect(channelBlocked(noChatPush, 'push', 'messages', noon)).toBe('setting-off');
    expect(channelBlocked(noChatPush, 'push', 'offers', noon)).toBeNull();
    expect(channelBlocked(noChatPush, 'email', 'messages', noon)).toBeNull();
  });

  it('silences push in quiet hours (start inclusive, end exclusive), never e-mail', () => {
    const night = quiet('22:00', '07:00');
    expect(channelBlocked(night, 'push', 'messages', at('2026-03-02T21:59:00Z'))).toBeNull();
    expect(channelBlocked(night, 'push', 'messages', at('2026-03-02T22:00:00Z'))).toBe('quiet-hours');
    expect(channelBlocked(night, 'push', 'messages', at('2026-03-02T03:00:00Z'))).toBe('quiet-hours');
    expect(channelBlocked(night, 'push', 'messages', at('2026-03-02T07:00:00Z'))).toBeNull();
    expect(channelBlocked(night, 'email', 'messages', at('2026-03-02T03:00:00Z'))).toBeNull();
    // A switch that is off is the reason even in quiet hours.
    expect(channelBlocked({ ...night, push: { messages: false, offers: true, payments: true } }, 'push', 'messages', at('2026-03-02T03:00:00Z'))).toBe(
      'setting-off',
    );
  });

  it('reads quiet hours within one day, and none when they start and end at once', () => {
    const lunch = quiet('12:00', '13:30');
    expect(isQuiet(lunch, at('2026-03-02T11:59:00Z'))).toBe(false);
    expect(isQuiet(lunch, at('2026-03-02T12:45:00Z'))).toBe(true);
    expect(isQuiet(lunch, at('2026-03-02T13:30:00Z'))).toBe(false);
    expect(isQuiet(quiet('09:00', '09:00'), at('2026-03-02T09:00:00Z'))).toBe(false);
    expect(isQuiet(defaultSettings(), at('2026-03-02T09:00:00Z'))).toBe(false);
  });

  it("reads quiet hours in the user's own timezone, and in UTC when its name is unknown", () => {
    // 21:30 UTC is 22:30 in Warsaw (CET, winter).
    expect(isQuiet(quiet('22:00', '07:00', 'Europe/Warsaw'), at('2026-03-02T21:30:00Z'))).toBe(true);
    expect(isQuiet(quiet('22:00', '07:00', 'UTC'), at('2026-03-02T21:30:00Z'))).toBe(false);
    expect(localMinutes(at('2026-03-02T21:30:00Z'), 'Not/AZone')).toBe(21 * 60 + 30);
  });

  it('answers quiet hours as HH:MM, and none as null', () => {
    expect(hhmmOf(minutesOf('07:05'))).toBe('07:05');
    expect(toResponse(quiet('22:00', '07:00')).quietHours).toEqual({ start: '22:00', end: '07:00' });
    expect(toResponse(defaultSettings()).quietHours).toBeNull();
  });
});
