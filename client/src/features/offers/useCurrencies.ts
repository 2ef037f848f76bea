import { useEffect, useState } from 'react';
import { instanceApi } from '@/api/instance.api';
import type { AppConfigFile } from '@/api/types';
import type { SelectionItem } from '@/components/select/selection';
import { DEFAULT_CURRENCY } from '@/components/format/numbers';
import { t } from '@/i18n/i18n';
import type { LanguageCode } from '@/i18n/languages';

export interface CurrencyChoice {
  /** The language's suggested currencies first (grouped), then every other one. */
  items: SelectionItem[];
  /** The language's first suggestion; USD when the config has none. */
  suggested: string;
  decimalsOf: (code: string) => number;
  loaded: boolean;
}

/** The currency selects' items from /assets/config.json (suggested currencies per language, USD default). */
export function currencyChoice(config: AppConfigFile | null, lang: LanguageCode): CurrencyChoice {
  if (!config) return { items: [{ value: DEFAULT_CURRENCY, label: DEFAULT_CURRENCY }], suggested: DEFAULT_CURRENCY, decimalsOf: () => 2, loaded: false };
  const suggestions = config.languages.find((l) => l.code === lang)?.suggestedCurrencies ?? [];
  const known = new Set(config.currencies.map((c) => c.code));
  const first = suggestions.filter((c) => known.has(c));
  const item = (c: AppConfigFile['currencies'][number], group: string): SelectionItem => ({ value: c.code, label: c.code, description: c.name, group });
  const items = [
    ...first.map((code) =>
      item(
        config.currencies.find((c) => c.code === code)!,
        t('OFFERS.FORM.SUGGESTED_CURRENCIES'),
      ),
    ),
    ...config.currencies.filter((c) => !first.includes(c.code)).map((c) => item(c, t('OFFERS.FORM.ALL_CURRENCIES'))),
  ];
  return {
    items,
    suggested: first[0] ?? config.defaultCurrency ?? DEFAULT_CURRENCY,
    decimalsOf: (code) => config.currencies.find((c) => c.code === code)?.decimals ?? 2,
    loaded: true,
  };
}

export function useCurrencies(lang: LanguageCode): CurrencyChoice {
  const [config, setConfig] = useState<AppConfigFile | null>(null);
  useEffect(() => {
    let live = true;
    instanceApi
      .config()
      .then((c) => live && setConfig(c))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return currencyChoice(config, lang);
}
