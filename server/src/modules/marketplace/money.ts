import { ValidateBy, ValidationArguments } from 'class-validator';
import { currencyDecimals, isCurrencyCode } from '#shared/contracts/currencies';
import { MAX_PRICE_AMOUNT } from '#shared/contracts/offers';

/**
 * A plain decimal: optional minus, digits, optional fraction. No exponent, no spaces, no '+', no bare '.5'.
 * Any number of digits: a long well-formed amount breaks MAX (or IS_POSITIVE), not this rule.
 */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * A JSON number as the decimal string it was written as (the shortest form that reads back the same number, so
 * 12.5 → '12.5' and 0.1 → '0.1'), with no exponent: tiny numbers are spelled out (and break MAX_DECIMALS),
 * huge ones written as whole digits (and break MAX). Anything else is left as it is.
 */
export function numberToDecimal(value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value;
  const text = String(value);
  if (!text.includes('e')) return text;
  // '1.5e-7' → digits '15' with the point 1 - 7 = -6 places in → '0.00000015'; '1e21' → '1' and 21 zeros.
  const [mantissa, exponent] = text.split('e');
  const sign = mantissa.startsWith('-') ? '-' : '';
  const unsigned = mantissa.replace('-', '');
  const digits = unsigned.replace('.', '');
  const point = unsigned.split('.')[0].length + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

export const isDecimalString = (value: unknown): value is string => typeof value === 'string' && DECIMAL.test(value);

/** Digits after the point. */
export const decimalPlaces = (value: string): number => (value.includes('.') ? value.split('.')[1].length : 0);

/** Compares two non-negative decimal strings exactly (no floats): -1, 0 or 1. */
export function compareDecimals(a: string, b: string): number {
  const [ai, af = ''] = a.split('.');
  const [bi, bf = ''] = b.split('.');
  const intA = ai.replace(/^0+(?=\d)/, '');
  const intB = bi.replace(/^0+(?=\d)/, '');
  if (intA.length !== intB.length) return intA.length < intB.length ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const x = intA + af.padEnd(width, '0');
  const y = intB + bf.padEnd(width, '0');
  return x === y ? 0 : x < y ? -1 : 1;
}

const isPositive = (value: string): boolean => !value.startsWith('-') && /[1-9]/.test(value);

/** An amount as the API answers it: the currency's decimals (2 for most, 0 for JPY), never a float. */
export function formatAmount(stored: string, currency: string): string {
  const decimals = isCurrencyCode(currency) ? currencyDecimals(currency) : 2;
  const [int, frac = ''] = stored.split('.');
  const whole = int.replace(/^0+(?=\d)/, '');
  return decimals === 0 ? whole : `${whole}.${frac.padEnd(decimals, '0').slice(0, decimals)}`;
}

const decimalsAllowed = (args: ValidationArguments): number => {
  const currency = (args.object as { currency?: unknown }).currency;
  return isCurrencyCode(currency) ? currencyDecimals(currency) : 2;
};

/**
 * The money rules on a decimal-string `amount` (its sibling `currency` decides the decimals), each its own
 * broken rule: IS_DECIMAL, IS_POSITIVE (0 is not a price), MAX_DECIMALS, MAX (MAX_PRICE_AMOUNT).
 * Each rule stays quiet when an earlier one already failed, so one mistake is one key.
 */
export function AmountRules(): PropertyDecorator {
  const rules: [string, (value: string, args: ValidationArguments) => boolean][] = [
    ['isDecimal', (v) => DECIMAL.test(v)],
    ['isPositive', (v) => !DECIMAL.test(v) || isPositive(v)],
    ['maxDecimals', (v, args) => !DECIMAL.test(v) || !isPositive(v) || decimalPlaces(v) <= decimalsAllowed(args)],
    ['max', (v) => !DECIMAL.test(v) || !isPositive(v) || compareDecimals(v, MAX_PRICE_AMOUNT) <= 0],
  ];
  return (target, key) => {
    for (const [name, ok] of rules) {
      ValidateBy({ name, validator: { validate: (value, args) => typeof value !== 'string' || ok(value, args!) } })(target, key);
    }
  };
}
