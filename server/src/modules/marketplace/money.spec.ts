import { compareDecimals, formatAmount, numberToDecimal } from './money';

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

  it('reads a JSON number as the decimal it spells, never with an exponent', () => {
    expect(numberToDecimal(12.5)).toBe('12.5');
    expect(numberToDecimal(0.1)).toBe('0.1');
    expect(numberToDecimal(2400)).toBe('2400');
    expect(numberToDecimal(1e-7)).toBe('0.0000001');
    expect(numberToDecimal(1.5e-7)).toBe('0.00000015');
    expect(numberToDecimal(1e21)).toBe('1000000000000000000000');
    expect(numberToDecimal(1.25e22)).toBe('12500000000000000000000');
    expect(numberToDecimal(-5)).toBe('-5');
    expect(numberToDecimal('12.50')).toBe('12.50');
    expect(numberToDecimal(true)).toBe(true);
  });
});
