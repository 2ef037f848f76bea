/** REST answers of the small lookups (server/src/modules/misc); the response DTOs implement these. */

export interface LanguageConfigResponse {
  code: string;
  locale: string;
  /** ISO 4217 codes, the first is the suggestion. */
  suggestedCurrencies: string[];
}

export interface CurrencyResponse {
  /** ISO 4217 code. */
  code: string;
  name: string;
  /** Decimal places an amount may carry. */
  decimals: number;
}

/** GET /assets/config.json. */
export interface ClientConfigResponse {
  languages: LanguageConfigResponse[];
  currencies: CurrencyResponse[];
  defaultCurrency: string;
}
