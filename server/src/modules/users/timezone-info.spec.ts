import { canonicalTimezone, timezoneInfo } from './timezone-info';

describe('timezoneInfo', () => {
  const winter = new Date('2026-01-15T12:00:00Z');
  const summer = new Date('2026-07-15T12:00:00Z');

  it.each([
    ['Europe/Warsaw', winter, { abbr: 'CET', offset: 60 }],
    ['Europe/Warsaw', summer, { abbr: 'CEST', offset: 120 }],
    ['America/New_York', winter, { abbr: 'EST', offset: -300 }],
    ['America/New_York', summer, { abbr: 'EDT', offset: -240 }],
    ['Asia/Kolkata', winter, { abbr: 'IST', offset: 330 }],
    ['Asia/Kathmandu', winter, { abbr: 'GMT+5:45', offset: 345 }],
    ['Asia/Tokyo', summer, { abbr: 'GMT+9', offset: 540 }],
    ['UTC', summer, { abbr: 'UTC', offset: 0 }],
  ])('%s at %s', (name, at, expected) => {
    expect(timezoneInfo(name, at)).toEqual({ name, ...expected });
  });

  it('falls back to UTC for a name that is not a zone', () => {
    expect(timezoneInfo('Mars/Olympus', summer)).toEqual({ abbr: 'UTC', name: 'UTC', offset: 0 });
  });
});

describe('canonicalTimezone', () => {
  it('accepts IANA names in any case and answers the canonical spelling', () => {
    expect(canonicalTimezone('europe/warsaw')).toBe('Europe/Warsaw');
    expect(canonicalTimezone('utc')).toBe('UTC');
    expect(canonicalTimezone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
  });

  it.each(['', 'Mars/Olympus', '+01:00', 'Europe/../etc', 'x'.repeat(65), 'Europe/Warsaw '])('refuses %j', (name) => {
    expect(canonicalTimezone(name)).toBeNull();
  });
});
