import { tk } from '@/i18n/i18n';
import { localInputToUtcIso } from '@/components/format/dates';

/** The largest price the server takes (MAX_PRICE_AMOUNT). */
export const MAX_AMOUNT = 100_000_000;
/** The spec's number rule: at most 2 decimals (fewer where the currency has fewer, e.g. JPY 0). */
export const MAX_DECIMALS = 2;

/** A broken form rule: a translation key and its count, if it has one. */
export interface FormRule {
  key: string;
  count?: number;
}

/**
 * An amount as typed ('2 400,50', '2400.5') in the server's form ('2400.50' → '2400.5'): spaces (grouping) go, a
 * decimal comma becomes a point. Null when it is not a plain positive decimal.
 */
export function normalizeAmount(text: string): string | null {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '').replace(',', '.');
  return /^\d+(\.\d+)?$/.test(compact) ? compact : null;
}

/** The rules of a price amount, in order; the first broken one is shown. */
export function amountRule(text: string, options: { required: boolean; decimals?: number }): FormRule | null {
  if (text.trim() === '') return options.required ? { key: tk('FORM.REQUIRED') } : null;
  const amount = normalizeAmount(text);
  if (amount === null) return { key: tk('OFFERS.FORM.AMOUNT_FORMAT') };
  if (!/[1-9]/.test(amount)) return { key: tk('OFFERS.FORM.AMOUNT_POSITIVE') };
  const decimals = Math.min(options.decimals ?? MAX_DECIMALS, MAX_DECIMALS);
  const places = amount.includes('.') ? amount.split('.')[1].length : 0;
  if (places > decimals) return { key: tk('OFFERS.FORM.AMOUNT_DECIMALS'), count: decimals };
  if (Number(amount) > MAX_AMOUNT) return { key: tk('OFFERS.FORM.AMOUNT_MAX') };
  return null;
}

/** A deadline is required and must lie in the future. */
export function deadlineRule(value: string, now = Date.now()): FormRule | null {
  if (!value) return { key: tk('FORM.REQUIRED') };
  const iso = localInputToUtcIso(value);
  if (!iso) return { key: tk('OFFERS.FORM.DEADLINE_FORMAT') };
  if (new Date(iso).getTime() <= now) return { key: tk('OFFERS.FORM.DEADLINE_FUTURE') };
  return null;
}

export interface OfferFormValues {
  amount: string;
  currency: string;
  localAmount: string;
  localCurrency: string;
  /** datetime-local, in local time */
  deadline: string;
  message: string;
}

/** The form's values as the API takes them (the local price only when an amount is given). */
export function toTermsInput(values: OfferFormValues): {
  price: { amount: string; currency: string };
  localPrice?: { amount: string; currency: string };
  deadline: string;
} {
  const local = values.localAmount.trim() ? normalizeAmount(values.localAmount) : null;
  return {
    price: { amount: normalizeAmount(values.amount) ?? values.amount, currency: values.currency },
    ...(local ? { localPrice: { amount: local, currency: values.localCurrency } } : {}),
    deadline: localInputToUtcIso(values.deadline) ?? values.deadline,
  };
}
