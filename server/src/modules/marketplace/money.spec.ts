import { compareDecimals, formatAmount } from './money';

describe('money', () => {
  it('compares decimal strings exactly', () => {
    expect(compareDecimals('100000000.00', '100000000')).toBe(0);
    expect(compareDecimals('100000000.01', '100000000.00')).toBe(1);
    expect(compareDecimals('0099999999.99', '100000000')).toBe(-1);
    expect(compareDecimals('12345678901234567890', '100000000')).toBe(1);
  });

  it('formats stored amounts with the currency decimals', () => {
    expect(formatAmount('12.50', 'USD')).toBe('12.50');
    expect(formatAmount('7.5', 'EUR')).toBe('7.50');
    expect(formatAmount('1500.00', 'JPY')).toBe('1500');
    expect(formatAmount('0007', 'PLN')).toBe('7.00');
  });
});
