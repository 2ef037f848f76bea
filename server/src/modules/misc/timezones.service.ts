import { Injectable } from '@nestjs/common';
import { listTimezones, TimezoneInfo } from './timezones';

const REFRESH_MS = 60 * 60 * 1000;

// Per process, not per app: built on first use rather than at boot (so test apps don't all pay for it).
let cached: { zones: readonly TimezoneInfo[]; at: number } | undefined;
let building: Promise<readonly TimezoneInfo[]> | undefined;

/** The time zone list, rebuilt hourly so DST changes show up; the old list is served while it rebuilds. */
@Injectable()
export class TimezonesService {
  async list(): Promise<readonly TimezoneInfo[]> {
    const now = Date.now();
    if (cached && now - cached.at < REFRESH_MS) return cached.zones;
    building ??= listTimezones(new Date(now))
      .then((zones) => {
        cached = { zones: Object.freeze(zones), at: now };
        return cached.zones;
      })
      .finally(() => (building = undefined));
    // The hourly rebuild runs behind the old list and nobody awaits it; a failure just leaves the old list.
    if (cached) building.catch(() => undefined);
    return cached?.zones ?? building;
  }
}
