import { listTimezones, TimezoneInfo } from './timezones';

describe('time zone list', () => {
  let january: TimezoneInfo[];
  let july: TimezoneInfo[];
  beforeAll(async () => {
    [january, july] = await Promise.all([listTimezones(new Date('2026-01-15T12:00:00Z')), listTimezones(new Date('2026-07-15T12:00:00Z'))]);
  });
  // ICU names some zones by their older IANA alias (Asia/Calcutta), depending on the Node version.
  const zone = (list: TimezoneInfo[], ...names: string[]) => list.find((z) => names.includes(z.name));

  it('lists every zone Intl knows plus UTC, once each, under its own name', () => {
    const names = january.map((z) => z.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['UTC', ...Intl.supportedValuesOf('timeZone')]));
  });

  it('gives offsets in minutes east of UTC at the given moment, with abbreviations where they exist', () => {
    expect(zone(january, 'UTC')).toEqual({ name: 'UTC', abbr: 'UTC', offset: 0 });
    expect(zone(january, 'Europe/Warsaw')).toEqual({ name: 'Europe/Warsaw', abbr: 'CET', offset: 60 });
    expect(zone(july, 'Europe/Warsaw')).toEqual({ name: 'Europe/Warsaw', abbr: 'CEST', offset: 120 });
    expect(zone(january, 'America/New_York')).toEqual({ name: 'America/New_York', abbr: 'EST', offset: -300 });
    expect(zone(january, 'Asia/Kolkata', 'Asia/Calcutta')).toMatchObject({ abbr: 'IST', offset: 330 });
    expect(zone(january, 'America/Sao_Paulo')).toEqual({ name: 'America/Sao_Paulo', abbr: 'GMT-3', offset: -180 });
  });
});
