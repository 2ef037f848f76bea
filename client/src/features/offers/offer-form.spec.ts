import { amountRule, deadlineRule, normalizeAmount, toTermsInput } from './offer-form';

describe('offer form rules', () => {
  it('reads amounts with a decimal point or comma and grouping spaces', () => {
    expect(normalizeAmount('2400.5')).toBe('2400.5');
    expect(normalizeAmount('2 400,50')).toBe('2400.50');
    expect(normalizeAmount('2\u00a0400,5')).toBe('2400.5');
    expect(normalizeAmount('-5')).toBeNull();
    expect(normalizeAmount('1e3')).toBeNull();
    expect(normalizeAmount('12.')).toBeNull();
    expect(normalizeAmount('abc')).toBeNull();
  });

  it('requires the price, with at most 2 decimals, more than 0 and at most 100,000,000', () => {
    const price = (text: string, decimals?: number) => amountRule(text, { required: true, decimals })?.key ?? null;
    expect(price('')).toBe('FORM.REQUIRED');
    expect(price('  ')).toBe('FORM.REQUIRED');
    expect(price('12,5x')).toBe('OFFERS.FORM.AMOUNT_FORMAT');
    expect(price('0')).toBe('OFFERS.FORM.AMOUNT_POSITIVE');
    expect(price('0.00')).toBe('OFFERS.FORM.AMOUNT_POSITIVE');
    expect(amountRule('12.345', { required: true })).toEqual({ key: 'OFFERS.FORM.AMOUNT_DECIMALS', count: 2 });
    expect(price('12.34')).toBeNull();
    expect(price('0.01')).toBeNull();
    expect(price('100000000')).toBeNull();
    expect(price('100000000.01')).toBe('OFFERS.FORM.AMOUNT_MAX');
    // A currency with fewer decimals (JPY 0) takes fewer; none takes more than 2.
    expect(amountRule('1500.5', { required: true, decimals: 0 })).toEqual({ key: 'OFFERS.FORM.AMOUNT_DECIMALS', count: 0 });
    expect(amountRule('1.123', { required: true, decimals: 3 })).toEqual({ key: 'OFFERS.FORM.AMOUNT_DECIMALS', count: 2 });
  });

  it('leaves the local price optional but checks it when given', () => {
    expect(amountRule('', { required: false })).toBeNull();
    expect(amountRule('1.999', { required: false })?.key).toBe('OFFERS.FORM.AMOUNT_DECIMALS');
  });

  it('requires a deadline in the future', () => {
    const now = new Date('2026-06-01T12:00:00').getTime();
    expect(deadlineRule('', now)?.key).toBe('FORM.REQUIRED');
    expect(deadlineRule('next week', now)?.key).toBe('OFFERS.FORM.DEADLINE_FORMAT');
    expect(deadlineRule('2026-06-01T11:59', now)?.key).toBe('OFFERS.FORM.DEADLINE_FUTURE');
    expect(deadlineRule('2026-06-02T09:00', now)).toBeNull();
  });

  it('sends the amounts in the server form, the deadline as UTC ISO, and the local price only when given', () => {
    const values = { amount: '2 400,5', currency: 'PLN', localAmount: '', localCurrency: 'USD', deadline: '2026-12-02T14:30', message: '' };
    expect(toTermsInput(values)).toEqual({ price: { amount: '2400.5', currency: 'PLN' }, deadline: new Date('2026-12-02T14:30').toISOString() });
    expect(toTermsInput({ ...values, localAmount: '600' }).localPrice).toEqual({ amount: '600', currency: 'USD' });
  });
});
