import { formatFileSize, formatMoney, formatNumber, formatPrice } from './numbers';
import { HEADER_MAX, SUBHEADER_MAX, shortenLink, truncate } from './text';

describe('truncate', () => {
  it('keeps text up to the limit and cuts longer text to the limit with an ellipsis', () => {
    expect(truncate('a'.repeat(40), HEADER_MAX)).toBe('a'.repeat(40));
    const cut = truncate('a'.repeat(41), HEADER_MAX);
    expect(cut).toHaveLength(40);
    expect(cut.endsWith('…')).toBe(true);
    expect(truncate('b'.repeat(150), SUBHEADER_MAX)).toHaveLength(100);
    expect(truncate(null, 40)).toBe('');
  });
});

describe('shortenLink', () => {
  it('leaves paths of 30 characters or fewer alone', () => {
    expect(shortenLink('/jobs/123')).toBe('/jobs/123');
    expect(shortenLink('x'.repeat(30))).toBe('x'.repeat(30));
  });

  it('shows the first 12 and last 12 characters of longer paths', () => {
    const path = '/documents/invoices/2025/very-long-file-name.pdf';
    expect(shortenLink(path)).toBe('/documents/i…ile-name.pdf');
    expect(shortenLink('y'.repeat(31))).toBe(`${'y'.repeat(12)}…${'y'.repeat(12)}`);
  });
});

describe('formatFileSize', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1 kB'],
    [1536, '1.5 kB'],
    [1024 ** 2, '1 MB'],
    [5.257 * 1024 ** 3, '5.26 GB'],
    [1024 ** 4, '1 TB'],
    [1024 ** 5, '1 PB'],
    [2048 * 1024 ** 5, '2048 PB'],
  ])('%d bytes is %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });

  it('shows nothing for nonsense', () => {
    expect(formatFileSize(-1)).toBe('');
    expect(formatFileSize(Number.NaN)).toBe('');
    expect(formatFileSize(undefined)).toBe('');
  });
});

describe('numbers and prices', () => {
  it('shows at most 2 decimals', () => {
    expect(formatNumber(1234.5678)).toBe('1,234.57');
    expect(formatNumber(10)).toBe('10');
    expect(formatNumber(0.1 + 0.2)).toBe('0.3');
  });

  it('uses the currency, USD by default', () => {
    expect(formatPrice(99.999, 'PLN')).toBe('100 PLN');
    expect(formatPrice(12.5, null)).toBe('12.5 USD');
  });
});

describe('formatMoney', () => {
  const plain = (s: string) => s.replace(/\u00a0|\u202f/g, ' ');

  it('formats per locale with 2 decimals and grouping', () => {
    expect(plain(formatMoney({ amount: '2400', currency: 'PLN' }, 'pl-PL'))).toBe('2 400,00 zł');
    expect(formatMoney({ amount: '2400.5', currency: 'USD' }, 'en-US')).toBe('$2,400.50');
    expect(plain(formatMoney({ amount: '0.10', currency: 'EUR' }, 'pl-PL'))).toBe('0,10 €');
  });

  it('keeps a currency without minor units at 0 decimals', () => {
    expect(formatMoney({ amount: '1500', currency: 'JPY' }, 'en-US')).toBe('¥1,500');
  });

  it('is empty for no money or a malformed amount', () => {
    expect(formatMoney(null)).toBe('');
    expect(formatMoney({ amount: 'abc', currency: 'USD' })).toBe('');
    expect(formatMoney({ amount: ' ', currency: 'USD' })).toBe('');
  });
});
