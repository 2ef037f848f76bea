import { splitLinks } from './message-links';

describe('splitLinks', () => {
  it('keeps text without links as one part', () => {
    expect(splitLinks('hello there')).toEqual([{ kind: 'text', text: 'hello there' }]);
  });

  it('finds http and https links between text', () => {
    expect(splitLinks('see http://a.io and https://b.io/x now')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', href: 'http://a.io/', label: 'http://a.io' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', href: 'https://b.io/x', label: 'https://b.io/x' },
      { kind: 'text', text: ' now' },
    ]);
  });

  it('shortens a link over 30 characters to its first 12 and last 12', () => {
    const url = 'https://example.com/a/very/long/path/to/page.html';
    const [part] = splitLinks(url);
    expect(part).toEqual({ kind: 'link', href: url, label: 'https://exam…to/page.html' });
  });

  it('keeps a link of exactly 30 characters whole', () => {
    const url = 'https://example.com/abcdefghij';
    expect(url).toHaveLength(30);
    expect(splitLinks(url)).toEqual([{ kind: 'link', href: url, label: url }]);
  });

  it('leaves sentence punctuation after a link outside it', () => {
    expect(splitLinks('go to https://a.io/b.')).toEqual([
      { kind: 'text', text: 'go to ' },
      { kind: 'link', href: 'https://a.io/b', label: 'https://a.io/b' },
      { kind: 'text', text: '.' },
    ]);
    expect(splitLinks('(https://a.io/b)')[1]).toEqual({ kind: 'link', href: 'https://a.io/b', label: 'https://a.io/b' });
    expect(splitLinks('https://en.wikipedia.org/wiki/Foo_(bar)')[0]).toMatchObject({ href: 'https://en.wikipedia.org/wiki/Foo_(bar)' });
  });

  it('never links other schemes', () => {
    expect(splitLinks('javascript:alert(1) ftp://x.io mailto:a@b.io')).toEqual([{ kind: 'text', text: 'javascript:alert(1) ftp://x.io mailto:a@b.io' }]);
  });
});
