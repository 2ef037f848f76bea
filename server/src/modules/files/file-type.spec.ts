import { safeFileName } from './file-type';

describe('safeFileName', () => {
  it('keeps ordinary names, letters of every script and emoji as they are', () => {
    expect(safeFileName('report 2026.pdf')).toBe('report 2026.pdf');
    expect(safeFileName('zażółć gęślą jaźń.pdf')).toBe('zażółć gęślą jaźń.pdf');
    expect(safeFileName('отчёт.docx')).toBe('отчёт.docx');
    expect(safeFileName('🎉.png')).toBe('🎉.png');
  });

  it('removes bidi controls of every kind, so no name reads backwards', () => {
    for (const c of ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c']) {
      expect(safeFileName(`a${c}b.txt`)).toBe('ab.txt');
    }
    expect(safeFileName('\u202egnp.exe')).toBe('gnp.exe');
  });

  it('removes zero-width characters, the byte-order mark, separators and C0/C1 controls', () => {
    expect(safeFileName('a\u200b\u200c\u200d\u2060\ufeffb.txt')).toBe('ab.txt');
    expect(safeFileName('a\u2028b\u2029c\u0085d\u0000e\u001f\u007f.txt')).toBe('abcde.txt');
  });

  it('normalises to NFC', () => {
    expect(safeFileName('cafe\u0301.txt')).toBe('caf\u00e9.txt');
  });

  it('drops paths, quotes and leading dots, and names an empty result "file"', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('C:\\temp\\"x".txt')).toBe('x.txt');
    expect(safeFileName('.hidden')).toBe('hidden');
    expect(safeFileName('\u202e\u200b')).toBe('file');
    expect(safeFileName(undefined)).toBe('file');
  });

  it('cuts long names at 255 characters without splitting a surrogate pair', () => {
    const name = safeFileName('a' + '😀'.repeat(300));
    expect(Array.from(name)).toHaveLength(255);
    expect(encodeURIComponent(name)).toBeTruthy(); // throws URIError on a lone surrogate
  });
});
