import { formatDateTime, isPast, localInputToDate, localInputToUtcIso, toLocalInput } from './dates';

const MINUTE = 60_000;
/** What the wall-clock time y-m-d h:min in this machine's zone is in UTC, computed from the zone's offset at that time. */
const utcOf = (y: number, m: number, d: number, h: number, min: number) =>
  new Date(Date.UTC(y, m - 1, d, h, min) + new Date(y, m - 1, d, h, min).getTimezoneOffset() * MINUTE).toISOString();

describe('deadlines: picked in local time, sent as UTC ISO', () => {
  it('sends a local wall-clock time as the UTC instant it stands for, in summer and in winter', () => {
    expect(localInputToUtcIso('2031-05-01T12:00')).toBe(utcOf(2031, 5, 1, 12, 0));
    expect(localInputToUtcIso('2031-01-15T12:00')).toBe(utcOf(2031, 1, 15, 12, 0));
    expect(localInputToUtcIso('2031-05-01T12:00')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/);
  });

  it('shows a stored UTC instant as the local wall-clock time it was picked as (a round trip changes nothing)', () => {
    for (const value of ['2031-05-01T12:00', '2031-01-15T23:45', '2032-01-01T00:30', '2031-10-26T01:30']) {
      expect(toLocalInput(localInputToUtcIso(value))).toBe(value);
    }
    const instant = '2031-12-31T23:30:00.000Z';
    const local = new Date(instant);
    expect(toLocalInput(instant)).toBe(
      `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}T${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}`,
    );
  });

  it('takes empty as no deadline and refuses what is not a real local time', () => {
    expect(localInputToUtcIso('')).toBeNull();
    expect(localInputToUtcIso('  ')).toBeNull();
    expect(localInputToUtcIso('2031-04-31T10:00')).toBeUndefined();
    expect(localInputToUtcIso('tomorrow')).toBeUndefined();
    expect(localInputToDate('2031-13-01T10:00')).toBeNull();
    expect(localInputToDate('2031-05-01T10:00:30')?.getSeconds()).toBe(30);
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput('nonsense')).toBe('');
  });

  it('shows a deadline in the reader’s time zone and locale', () => {
    expect(formatDateTime('2031-05-01T10:00:00.000Z', 'en-US', 'Europe/Warsaw')).toBe('May 1, 2031, 12:00 PM');
    expect(formatDateTime('2031-05-01T10:00:00.000Z', 'pl-PL', 'Europe/Warsaw')).toBe('1 maj 2031, 12:00');
    expect(formatDateTime('2031-05-01T10:00:00.000Z', 'en-US', 'America/New_York')).toBe('May 1, 2031, 6:00 AM');
    expect(formatDateTime('2031-01-15T10:00:00.000Z', 'pl-PL', 'Europe/Warsaw')).toBe('15 sty 2031, 11:00');
    expect(formatDateTime('2026-12-02T13:30:00.000Z', 'pl-PL', 'Europe/Warsaw')).toBe('2 gru 2026, 14:30');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('nonsense')).toBe('');
    expect(isPast('2001-01-01T00:00:00Z')).toBe(true);
    expect(isPast('2999-01-01T00:00:00Z')).toBe(false);
    expect(isPast(null)).toBe(false);
  });
});
