/** A time zone as the spec's User entity shows it: IANA name, abbreviation and offset in minutes east of UTC. */
export interface TimezoneInfo {
  abbr: string;
  name: string;
  offset: number;
}

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;
// Intl gives real abbreviations only in a locale that uses them (EST in en-US, CET in en-GB, IST in en-IN, AEDT in en-AU).
const ABBR_LOCALES = ['en-US', 'en-GB', 'en-IN', 'en-AU'];

let knownByLowerCase: Map<string, string> | undefined;

/**
 * The IANA zone name as stored: ICU's spelling when it lists the zone (so 'europe/warsaw' becomes
 * 'Europe/Warsaw'), else the name as given if ICU accepts it (newer names such as Asia/Kolkata are only
 * aliases in Node 20's ICU, and its canonical form would rename them); null if it is not a zone.
 */
export function canonicalTimezone(name: string): string | null {
  if (typeof name !== 'string' || name.length > 64 || !NAME_PATTERN.test(name)) return null;
  knownByLowerCase ??= new Map(['UTC', ...Intl.supportedValuesOf('timeZone')].map((z) => [z.toLowerCase(), z]));
  const known = knownByLowerCase.get(name.toLowerCase());
  if (known) return known;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name;
  } catch {
    return null;
  }
}

// Building a DateTimeFormat costs far more than using one, and users share a handful of zones.
const formats = new Map<string, Intl.DateTimeFormat>();

function zoneNamePart(locale: string, timeZone: string, style: 'short' | 'longOffset', at: Date): string {
  const key = `${locale}|${timeZone}|${style}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: style });
    formats.set(key, format);
  }
  const parts = format.formatToParts(at);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? '';
}

/** Offset and abbreviation of a zone at a moment (daylight saving time changes both). */
export function timezoneInfo(name: string, at = new Date()): TimezoneInfo {
  const zone = canonicalTimezone(name) ?? 'UTC';
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(zoneNamePart('en-US', zone, 'longOffset', at));
  const offset = match?.[1] ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
  const candidates = ABBR_LOCALES.map((locale) => zoneNamePart(locale, zone, 'short', at));
  const abbr = candidates.find((a) => a && !/^GMT[+-]/.test(a)) ?? candidates[0];
  return { abbr, name: zone, offset };
}
