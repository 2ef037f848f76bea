import { resolveLanguage, resolveTheme } from './preferences';

describe('theme preference', () => {
  it('uses the stored theme first', () => {
    expect(resolveTheme('dark', false)).toBe('dark');
    expect(resolveTheme('light', true)).toBe('light');
  });

  it('follows the system when nothing (or nonsense) is stored', () => {
    expect(resolveTheme(null, true)).toBe('dark');
    expect(resolveTheme(null, false)).toBe('light');
    expect(resolveTheme('purple', true)).toBe('dark');
  });
});

describe('language preference', () => {
  it('uses the stored language when it is supported', () => {
    expect(resolveLanguage('pol', ['en-US'])).toBe('pol');
    expect(resolveLanguage('eng', ['pl-PL'])).toBe('eng');
  });

  it('falls back to the first supported browser language', () => {
    expect(resolveLanguage(null, ['pl-PL', 'en-US'])).toBe('pol');
    expect(resolveLanguage(null, ['de-DE', 'pl'])).toBe('pol');
    expect(resolveLanguage('ger', ['en-GB'])).toBe('eng');
  });

  it('falls back to eng when nothing fits', () => {
    expect(resolveLanguage(null, ['de-DE', 'fr'])).toBe('eng');
    expect(resolveLanguage('xx', [])).toBe('eng');
  });
});
