import { setImmediate as nextTurn } from 'node:timers/promises';
import { TimezoneInfo, timezoneInfo } from '../users/timezone-info';

export type { TimezoneInfo };

const SLICE = 10;

/**
 * Every IANA zone the runtime knows, plus UTC (which Intl leaves out of its list), described by the
 * same function that describes a user's zone, so the list and users' zones always agree. It takes
 * 0.5–1 s of ICU work, so it yields to the event loop every few zones instead of stalling chat traffic.
 */
export async function listTimezones(at: Date = new Date()): Promise<TimezoneInfo[]> {
  const names = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];
  const zones: TimezoneInfo[] = [];
  for (let i = 0; i < names.length; i += SLICE) {
    for (const name of names.slice(i, i + SLICE)) zones.push({ ...timezoneInfo(name, at), name });
    await nextTurn();
  }
  return zones;
}
