const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const;

/** Sizes in B, kB, MB, GB, TB, PB in steps of 1024, with at most 2 decimals. */
export function formatFileSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < SIZE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = unit === 0 ? Math.round(value) : Math.round(value * 100) / 100;
  return `${rounded} ${SIZE_UNITS[unit]}`;
}

export const DEFAULT_CURRENCY = 'USD';

/** A number with at most 2 decimals, in the given locale ('en-US', 'pl-PL'). */
export function formatNumber(value: number, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2, minimumFractionDigits: 0 }).format(value);
}

/** A price: amount with at most 2 decimals and its currency code (USD when none is given). */
export function formatPrice(amount: number, currency: string | null | undefined, locale = 'en-US'): string {
  return `${formatNumber(amount, locale)} ${currency || DEFAULT_CURRENCY}`;
}

/** Money as the API sends it: a decimal string amount and an ISO 4217 currency. */
export interface MoneyValue {
  amount: string;
  currency: string;
}

/**
 * Money for display in a locale, with the currency's own decimals capped at 2 and grouping always on
 * (Polish CLDR leaves 4-digit amounts ungrouped; the product shows "2 400,00 zł"). Empty for no money or a
 * malformed amount, the currency code alone for an unknown currency.
 */
export function formatMoney(money: MoneyValue | null | undefined, locale = 'en-US'): string {
  if (!money) return '';
  const value = Number(money.amount);
  if (money.amount.trim() === '' || !Number.isFinite(value)) return '';
  const currency = money.currency || DEFAULT_CURRENCY;
  try {
    const digits = Math.min(new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2, 2);
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      useGrouping: 'always',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  } catch {
    return `${formatNumber(value, locale)} ${currency}`;
  }
}
