import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SELECTION_MAX_HEIGHT, SELECT_SEARCH_DEBOUNCE_MS, type SelectionItem, type SelectionSearch, keepAll, mergeItems, toComboboxData } from './selection';
import { useDebouncedSearch } from './useDebouncedSearch';

/** What Select and MultiSelect share: static or remote (debounced) items, the spec's texts and the 30vh list. */
export function useSelectionSource(items: readonly SelectionItem[] | undefined, search: SelectionSearch | undefined, chosen: readonly string[]) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const remote = useDebouncedSearch(term, search, { delayMs: SELECT_SEARCH_DEBOUNCE_MS });
  const [known, setKnown] = useState<SelectionItem[]>([]);
  const all = useMemo(() => mergeItems(known, search ? remote.items : (items ?? [])), [known, search, remote.items, items]);
  const byValue = useMemo(() => new Map(all.map((i) => [i.value, i])), [all]);

  return {
    term,
    setTerm,
    loading: remote.loading,
    byValue,
    /** Remembers the chosen items so their labels survive new search results. */
    remember: (values: readonly string[]) => setKnown(values.flatMap((v) => (byValue.has(v) ? [byValue.get(v) as SelectionItem] : []))),
    comboboxProps: {
      data: toComboboxData(
        search
          ? mergeItems(
              all.filter((i) => chosen.includes(i.value)),
              remote.items,
            )
          : all,
      ),
      searchable: true,
      searchValue: term,
      onSearchChange: setTerm,
      filter: search ? keepAll : undefined,
      maxDropdownHeight: SELECTION_MAX_HEIGHT,
      nothingFoundMessage: search && remote.tooShort ? t('SHARED.SELECT.TYPE_TO_FILTER') : t('SHARED.SELECT.NO_RESULTS'),
    },
  };
}
