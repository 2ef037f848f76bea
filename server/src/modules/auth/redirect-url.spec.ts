import { safeRedirectUrl } from './redirect-url';

describe('safeRedirectUrl', () => {
  it.each(['/', '/jobs', '/messages/abc?x=1#top', '/u/abc%2Fdef'])('keeps the same-origin path %j', (url) => {
    expect(safeRedirectUrl(url)).toBe(url);
  });

  it.each([
    undefined,
    '',
    'jobs',
    'https://evil.test/',
    '//evil.test',
    '/\\evil.test',
    '\\/evil.test',
    '/\t/evil.test',
    '/\n/evil.test',
    '/ok\\..\\x',
    'javascript:alert(1)',
    ' /jobs',
  ])('answers / for %j', (url) => {
    expect(safeRedirectUrl(url)).toBe('/');
  });
});
