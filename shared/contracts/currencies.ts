import type { LanguageCode } from './languages';

/** ISO 4217 currencies a price may be given in; decimals are the currency's minor-unit digits. */
export const CURRENCIES = [
  { code: 'USD', name: 'US Dollar', decimals: 2 },
  { code: 'EUR', name: 'Euro', decimals: 2 },
  { code: 'GBP', name: 'Pound Sterling', decimals: 2 },
  { code: 'PLN', name: 'Polish Zloty', decimals: 2 },
  { code: 'CHF', name: 'Swiss Franc', decimals: 2 },
  { code: 'CZK', name: 'Czech Koruna', decimals: 2 },
  { code: 'SEK', name: 'Swedish Krona', decimals: 2 },
  { code: 'NOK', name: 'Norwegian Krone', decimals: 2 },
  { code: 'DKK', name: 'Danish Krone', decimals: 2 },
  { code: 'UAH', name: 'Ukrainian Hryvnia', decimals: 2 },
  { code: 'RUB', name: 'Russian Ruble', decimals: 2 },
  { code: 'INR', name: 'Indian Rupee', decimals: 2 },
  { code: 'CAD', name: 'Canadian Dollar', decimals: 2 },
  { code: 'AUD', name: 'Australian Dollar', decimals: 2 },
  { code: 'MXN', name: 'Mexican Peso', decimals: 2 },
  { code: 'BRL', name: 'Brazilian Real', decimals: 2 },
  { code: 'CNY', name: 'Yuan Renminbi', decimals: 2 },
  { code: 'JPY', name: 'Yen', decimals: 0 },
] as const;

export type CurrencyCode = (typeof CURRENCIES)[number]['code'];
export const CURRENCY_CODES: readonly CurrencyCode[] = CURRENCIES.map((c) => c.code);

/** The spec's default suggested currency. */
export const DEFAULT_CURRENCY: CurrencyCode = 'USD';

/** Currencies offered first to a user of each language (the first is the suggestion). */
export const SUGGESTED_CURRENCIES: Record<LanguageCode, readonly CurrencyCode[]> = {
  eng: ['USD', 'EUR', 'GBP'],
  pol: ['PLN', 'EUR', 'USD'],
  rus: ['RUB', 'USD', 'EUR'],
  hin: ['INR', 'USD'],
  ger: ['EUR', 'CHF', 'USD'],
  spa: ['EUR', 'USD', 'MXN'],
  fra: ['EUR', 'CHF', 'CAD'],
};

export const isCurrencyCode = (value: unknown): value is CurrencyCode => typeof value === 'string' && (CURRENCY_CODES as readonly string[]).includes(value);

/** Decimal places an amount in this currency may carry (prices show at most 2). */
export const currencyDecimals = (code: CurrencyCode): number => CURRENCIES.find((c) => c.code === code)!.decimals;
