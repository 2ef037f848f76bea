import type { ComboboxItem, ComboboxItemGroup, ComboboxParsedItem } from '@mantine/core';

/** Spec section 5 and 9: select and tag searches wait 300 ms after the last keystroke. */
export const SELECT_SEARCH_DEBOUNCE_MS = 300;
/** Selection lists are at most 30vh high (spec section 2). */
export const SELECTION_MAX_HEIGHT = '30vh';

/** A selection item of the spec (section 3): value, label, prefix, surfix, description, group. */
export interface SelectionItem {
  value: string;
  label: string;
  prefix?: string;
  surfix?: string;
  description?: string;
  group?: string;
}

export type SelectionSearch = (term: string) => Promise<SelectionItem[]>;

/** Mantine's combobox data: items without a group first, then one group per distinct group name, in order of appearance. */
export function toComboboxData(items: readonly SelectionItem[]): (ComboboxItem | ComboboxItemGroup<ComboboxItem>)[] {
  const loose: ComboboxItem[] = [];
  const groups = new Map<string, ComboboxItem[]>();
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.value)) continue;
    seen.add(item.value);
    const option = { value: item.value, label: item.label };
    if (!item.group) loose.push(option);
    else groups.set(item.group, [...(groups.get(item.group) ?? []), option]);
  }
  return [...loose, ...[...groups].map(([group, options]) => ({ group, items: options }))];
}

/** Keeps the chosen items known while the results change, so their labels stay shown. */
export function mergeItems(chosen: readonly SelectionItem[], results: readonly SelectionItem[]): SelectionItem[] {
  const byValue = new Map<string, SelectionItem>();
  for (const item of [...chosen, ...results]) if (!byValue.has(item.value)) byValue.set(item.value, item);
  return [...byValue.values()];
}

/** The server already filtered remote results; the combobox must not filter them again. */
export const keepAll = ({ options }: { options: ComboboxParsedItem[] }): ComboboxParsedItem[] => options;
