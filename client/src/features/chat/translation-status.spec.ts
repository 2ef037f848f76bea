import { translatesInto, translationUnavailable } from './translation-status';

const on = { known: true, enabled: true, pairs: [{ from: 'spa', to: 'eng' }] };
const off = { known: true, enabled: false, pairs: [] };
const unknown = { known: false, enabled: false, pairs: [] };

describe('where translation is off', () => {
  it('names a pair no engine serves, and everything when no engine is on', () => {
    expect(translationUnavailable(on, 'spa', 'eng')).toBeNull();
    expect(translationUnavailable(on, 'ger', 'eng')).toBe('unsupported');
    expect(translationUnavailable(on, 'eng', 'eng')).toBeNull();
    expect(translationUnavailable(on, null, 'eng')).toBeNull();
    expect(translationUnavailable(off, 'spa', 'eng')).toBe('off');
  });

  it('says nothing before the server answered', () => {
    expect(translationUnavailable(unknown, 'ger', 'eng')).toBeNull();
    expect(translatesInto(unknown, 'pol')).toBe(true);
  });

  it('knows whether any engine translates into the reader language', () => {
    expect(translatesInto(on, 'eng')).toBe(true);
    expect(translatesInto(on, 'pol')).toBe(false);
    expect(translatesInto(off, 'eng')).toBe(false);
  });
});
