import { i18n } from '@/i18n/i18n';
import { presenceLabel, presenceOf } from './presence';

const label = (minutes: number | null, lng: 'en' | 'pl', online = true) =>
  presenceLabel(presenceOf(minutes, online), (key, options) => i18n.t(key, { ...options, lng }) as string);

describe('presence', () => {
  it('is available up to 1 minute, away up to 60, unavailable beyond (0, 1, 2, 60, 61)', () => {
    expect(presenceOf(0)).toEqual({ state: 'available', minutes: 0, color: 'green', online: null });
    expect(presenceOf(1).state).toBe('available');
    expect(presenceOf(2)).toEqual({ state: 'away', minutes: 2, color: 'yellow', online: null });
    expect(presenceOf(60)).toEqual({ state: 'away', minutes: 60, color: 'yellow', online: null });
    expect(presenceOf(61)).toEqual({ state: 'unavailable', minutes: 61, color: 'red', online: null });
  });

  it('follows the minutes, not the socket: a closed tab 0 minutes ago is still available', () => {
    expect(presenceOf(0, false)).toEqual({ state: 'available', minutes: 0, color: 'green', online: false });
    expect(presenceOf(2, false).state).toBe('away');
    expect(presenceOf(61, true).state).toBe('unavailable');
  });

  it('is unavailable when the minutes are unknown', () => {
    expect(presenceOf(null).state).toBe('unavailable');
    expect(presenceOf(null, true).state).toBe('unavailable');
    expect(presenceOf(-3).state).toBe('unavailable');
  });

  it("labels 'inactive N minute(s)' in Polish with its plural forms", () => {
    expect(label(0, 'pl')).toBe('Dostępny');
    expect(label(2, 'pl')).toBe('Nieaktywny 2 minuty');
    expect(label(5, 'pl')).toBe('Nieaktywny 5 minut');
    expect(label(22, 'pl')).toBe('Nieaktywny 22 minuty');
    expect(label(90, 'pl')).toBe('Niedostępny');
  });

  it('labels the English equivalent', () => {
    expect(label(1, 'en')).toBe('Available');
    expect(label(2, 'en')).toBe('Inactive 2 minutes');
    expect(label(61, 'en')).toBe('Unavailable');
    expect(label(3, 'en', false)).toBe('Inactive 3 minutes');
    expect(label(60, 'en')).toBe('Inactive 60 minutes');
    expect(label(0, 'en', false)).toBe('Available');
  });
});
