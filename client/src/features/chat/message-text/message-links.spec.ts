import { splitLinks } from './message-links';

describe('splitLinks', () => {
  it('keeps text without links as one part', () => {
    expect(splitLinks('hello there')).toEqual([{ kind: 'text', text: 'hello there' }]);
  });

  it('finds http and https links between text', () => {
    expect(splitLinks('see http://a.io and https://b.io/x now')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: 'http://a.io/', label: 'a.io' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', href: 'https://b.io/x', label: 'b.io/x' },
      { kind: 'text', text: ' now' },
    ]);
  });

  it('shows the host in full, without the scheme, and shortens only a path over 30 characters to its first 12 and last 12', () => {
    const url = 'https://example.com/a/very/long/path/to/the/page.html?x=1';
    expect(splitLinks(url)).toEqual([{ kind: 'link', href: url, label: 'example.com/a/very/long…age.html?x=1' }]);
    const whole = 'https://a-rather-long-host-name.example.com/abcdefghijklmnopqrstuvwxyz012';
    expect(splitLinks(whole)).toEqual([{ kind: 'link', href: whole, label: whole.slice('https://'.length) }]);
  });

  it('never hides a fake host in the middle of a long one', () => {
    const url = 'https://paypal.com.account-verification.secure-login.evil.example/paypal.com/signin';
    const [part] = splitLinks(url);
    expect(part).toMatchObject({ kind: 'link', label: 'paypal.com.account-verification.secure-login.evil.example/paypal.com/signin' });
    const long = `https://login.evil.example/${'a'.repeat(40)}`;
    expect(splitLinks(long)[0]).toMatchObject({ label: `login.evil.example/${'a'.repeat(11)}…${'a'.repeat(12)}` });
  });

  it('shows the host a link really goes to, not user info that looks like one, and drops that user info', () => {
    expect(splitLinks('https://paypal.com@evil.example/login')).toEqual([{ kind: 'link', href: 'https://evil.example/login', label: 'evil.example/login' }]);
    expect(splitLinks('https://paypal.com:secret@evil.example')).toEqual([{ kind: 'link', href: 'https://evil.example/', label: 'evil.example' }]);
  });

  it('shows an international host in its xn-- form, so a look-alike of a familiar name is visible', () => {
    // Cyrillic "а" and "р" in place of the Latin letters.
    expect(splitLinks('https://\u0430\u0440\u0440le.com/login')).toEqual([
      { kind: 'link', href: 'https://xn--le-6kc8da.com/login', label: 'xn--le-6kc8da.com/login' },
    ]);
    expect(splitLinks('https://münchen.de')[0]).toMatchObject({ href: 'https://xn--mnchen-3ya.de/', label: 'xn--mnchen-3ya.de' });
  });

  it('keeps ports and IPv6 hosts, and escapes invisible characters in the path instead of showing them', () => {
    expect(splitLinks('http://[::1]:8080/x')[0]).toMatchObject({ label: '[::1]:8080/x' });
    expect(splitLinks('https://a.io:8443')[0]).toMatchObject({ label: 'a.io:8443' });
    // A right-to-left override in the path would turn the rest of the label around.
    expect(splitLinks('https://a.io/\u202egnp.exe')[0]).toMatchObject({ label: 'a.io/%E2%80%AEgnp.exe' });
  });

  it('leaves sentence punctuation after a link outside it', () => {
    expect(splitLinks('go to https://a.io/b.')).toEqual([
      { kind: 'text', text: 'go to ' },
      { kind: 'link', href: 'https://a.io/b', label: 'a.io/b' },
      { kind: 'text', text: '.' },
    ]);
    expect(splitLinks('(https://a.io/b)')[1]).toEqual({ kind: 'link', href: 'https://a.io/b', label: 'a.io/b' });
    expect(splitLinks('https://en.wikipedia.org/wiki/Foo_(bar)')[0]).toMatchObject({ href: 'https://en.wikipedia.org/wiki/Foo_(bar)' });
  });

  it('never links other schemes', () => {
    expect(splitLinks('javascript:alert(1) ftp://x.io mailto:a@b.io')).toEqual([{ kind: 'text', text: 'javascript:alert(1) ftp://x.io mailto:a@b.io' }]);
  });
});
