import type { Money } from '@/api/offer.api';
import { formatMoney } from '@/components/format/numbers';
import { type LanguageCode, intlLocaleOf } from '@/i18n/languages';

/** Money in the user's language ('$2,400.00' / '2 400,00 zł'); empty without money. */
export const formatOfferMoney = (money: Money | null | undefined, lang: LanguageCode): string => formatMoney(money, intlLocaleOf(lang));

/** The local price beside the price, unless it says the same thing. */
export function formatPriceWithLocal(price: Money | null, localPrice: Money | null, lang: LanguageCode): { price: string; local: string | null } {
  const main = formatOfferMoney(price, lang);
  const same = !localPrice || (price && localPrice.currency === price.currency && Number(localPrice.amount) === Number(price.amount));
  return { price: main, local: same ? null : formatOfferMoney(localPrice, lang) };
}
