import type { Money } from '@/api/offer.api';
import { formatMoney } from '@/components/format/numbers';
import { type LanguageCode, intlLocaleOf } from '@/i18n/languages';

/** A deadline or event time in the user's local time and language ('2 Dec 2026, 14:30' / '2 gru 2026, 14:30'). */
export function formatDateTime(iso: string | null | undefined, lang: LanguageCode, timeZone?: string): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocaleOf(lang), { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
}

/** Money in the user's language ('$2,400.00' / '2 400,00 zł'); empty without money. */
export const formatOfferMoney = (money: Money | null | undefined, lang: LanguageCode): string => formatMoney(money, intlLocaleOf(lang));

/** The local price beside the price, unless it says the same thing. */
export function formatPriceWithLocal(price: Money | null, localPrice: Money | null, lang: LanguageCode): { price: string; local: string | null } {
  const main = formatOfferMoney(price, lang);
  const same = !localPrice || (price && localPrice.currency === price.currency && Number(localPrice.amount) === Number(price.amount));
  return { price: main, local: same ? null : formatOfferMoney(localPrice, lang) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A UTC ISO time as the value of a datetime-local input, in local time ('2026-12-02T14:30'). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value (local time) as the UTC ISO the server takes; null when it is not a time. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}
