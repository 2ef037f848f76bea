import { Group, Loader, TagsInput, type TagsInputProps, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SELECTION_MAX_HEIGHT, SELECT_SEARCH_DEBOUNCE_MS, keepAll } from '@/components/select/selection';
import { useDebouncedSearch } from '@/components/select/useDebouncedSearch';

/** Suggestions are searched only for a term longer than 1 character (spec section 5). */
export const TAG_SEARCH_LONGER_THAN = 1;

/** A tag item of the spec (section 3): key, value, label, optional icon. */
export interface TagItem {
  key: string;
  value: string;
  label: string;
  /** An emoji or short text shown before the label. Default: none. */
  icon?: string;
}

export type TagInputProps = Omit<TagsInputProps, 'data' | 'value' | 'defaultValue' | 'onChange' | 'searchValue' | 'onSearchChange' | 'filter'> & {
  value: string[];
  onChange: (values: string[]) => void;
  /** Suggestions for the typed term, asked 300 ms after typing stops and only for terms over 1 character. Default: none (free tags only). */
  search?: (term: string) => Promise<TagItem[]>;
};

/** Free tags with searched suggestions; Enter or a comma adds the typed tag. */
export function TagInput({ value, onChange, search, placeholder, ...rest }: TagInputProps) {
  const { t } = useTranslation();
  const [term, setTerm] = useState('');
  const suggestions = useDebouncedSearch(term, search, { delayMs: SELECT_SEARCH_DEBOUNCE_MS, longerThan: TAG_SEARCH_LONGER_THAN });
  const byValue = useMemo(() => new Map(suggestions.items.map((item) => [item.value, item])), [suggestions.items]);
  const data = useMemo(
    () => [...byValue.values()].filter((item) => !value.includes(item.value)).map((item) => ({ value: item.value, label: item.label })),
    [byValue, value],
  );
  return (
    <TagsInput
      {...rest}
      value={value}
      onChange={onChange}
      data={data}
      searchValue={term}
      onSearchChange={setTerm}
      filter={search ? keepAll : undefined}
      maxDropdownHeight={SELECTION_MAX_HEIGHT}
      placeholder={placeholder ?? (value.length ? undefined : t('SHARED.SELECT.TYPE_TO_FILTER'))}
      rightSection={suggestions.loading ? <Loader size="xs" /> : rest.rightSection}
      renderOption={({ option }) => {
        const item = byValue.get(option.value);
        return (
          <Group gap={6} wrap="nowrap">
            {item?.icon ? <Text size="sm">{item.icon}</Text> : null}
            <Text size="sm">{item?.label ?? option.value}</Text>
          </Group>
        );
      }}
    />
  );
}
