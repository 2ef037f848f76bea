import { Loader, MultiSelect, type MultiSelectProps, Select, type SelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SelectionItem, SelectionSearch } from './selection';
import { SelectionOption } from './SelectionOption';
import { useSelectionSource } from './useSelectionSource';

type Common = {
  /** Static items, filtered as the user types. Default: none. */
  items?: SelectionItem[];
  /** Remote items: called with the typed term 300 ms after typing stops (takes over from `items`). Default: none. */
  search?: SelectionSearch;
};

type Owned = 'data' | 'value' | 'defaultValue' | 'onChange' | 'searchValue' | 'onSearchChange' | 'filter' | 'searchable';

export type SearchSelectProps = Common &
  Omit<SelectProps, Owned> & {
    value: string | null;
    onChange: (value: string | null, item: SelectionItem | null) => void;
  };

/** A single choice with the spec's texts ("not selected", "type to filter", "no results") and a list at most 30vh high. */
export function SearchSelect({ items, search, value, onChange, placeholder, ...rest }: SearchSelectProps) {
  const { t } = useTranslation();
  const source = useSelectionSource(items, search, value ? [value] : []);
  return (
    <Select
      {...rest}
      {...source.comboboxProps}
      value={value}
      placeholder={placeholder ?? t('SHARED.SELECT.NOT_SELECTED')}
      rightSection={source.loading ? <Loader size="xs" /> : rest.rightSection}
      renderOption={({ option }) => <SelectionOption item={source.byValue.get(option.value)} />}
      onChange={(next) => {
        source.remember(next ? [next] : []);
        onChange(next, next ? (source.byValue.get(next) ?? null) : null);
      }}
    />
  );
}

export type SearchMultiSelectProps = Common &
  Omit<MultiSelectProps, Owned> & {
    value: string[];
    onChange: (values: string[], items: SelectionItem[]) => void;
  };

/** Several choices, otherwise like SearchSelect. */
export function SearchMultiSelect({ items, search, value, onChange, placeholder, ...rest }: SearchMultiSelectProps) {
  const { t } = useTranslation();
  const source = useSelectionSource(items, search, value);
  return (
    <MultiSelect
      {...rest}
      {...source.comboboxProps}
      value={value}
      placeholder={value.length ? undefined : (placeholder ?? t('SHARED.SELECT.NOT_SELECTED'))}
      rightSection={source.loading ? <Loader size="xs" /> : rest.rightSection}
      renderOption={({ option }) => <SelectionOption item={source.byValue.get(option.value)} />}
      onChange={(next) => {
        source.remember(next);
        onChange(
          next,
          next.flatMap((v) => (source.byValue.has(v) ? [source.byValue.get(v) as SelectionItem] : [])),
        );
      }}
    />
  );
}
