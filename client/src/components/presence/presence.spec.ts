import { i18n } from '@/i18n/i18n';
import { presenceLabel, presenceOf } from './presence';

const label = (minutes: number | null, lng: 'en' | 'pl', online = true) =>
  presenceLabel(presenceOf(minutes, online), (key, options) => i18n.t(key, { ...options, lng }) as string);

describe('presence', () => {
  it('is available up to 1 minute, away up to 60, unavailable beyond', () => {
    expect(presenceOf(0)).toEqual({ state: 'available', minutes: 0, color: 'green' });
    expect(presenceOf(1).state).toBe('available');
    expect(presenceOf(2)).toEqual({ state: 'away', minutes: 2, color: 'yellow' });
    expect(presenceOf(60).state).toBe('away');
    expect(presenceOf(61)).toEqual({ state: 'unavailable', minutes: 61, color: 'red' });
  });

  it('is unavailable when offline or unknown', () => {
    expect(presenceOf(0, false).state).toBe('unavailable');
    expect(presenceOf(null).state).toBe('unavailable');
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
    expect(label(3, 'en', false)).toBe('Unavailable');
  });
});
