import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { renderWithMantine } from '../../../jest/render';

/** The text input itself (the listbox carries the same label). */
const inputLabelled = (label: string) => screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT') as HTMLInputElement;
import { SearchMultiSelect, SearchSelect } from './SearchSelect';
import { SELECTION_MAX_HEIGHT, type SelectionItem, mergeItems, toComboboxData } from './selection';
import { isSearchable } from './useDebouncedSearch';

const ITEMS: SelectionItem[] = [
  { value: 'pl', label: 'Poland', prefix: '🇵🇱', group: 'Europe' },
  { value: 'us', label: 'United States', surfix: 'USD', description: 'North America' },
  { value: 'de', label: 'Germany', group: 'Europe' },
];

function Single({ search }: { search?: (term: string) => Promise<SelectionItem[]> }) {
  const [value, setValue] = useState<string | null>(null);
  return <SearchSelect label="Country" items={search ? undefined : ITEMS} search={search} value={value} onChange={setValue} data-testid="select" />;
}

describe('selection helpers', () => {
  it('groups items by their group, loose items first, duplicates dropped', () => {
    expect(toComboboxData([...ITEMS, ITEMS[0]])).toEqual([
      { value: 'us', label: 'United States' },
      {
        group: 'Europe',
        items: [
          { value: 'pl', label: 'Poland' },
          { value: 'de', label: 'Germany' },
        ],
      },
    ]);
  });

  it('keeps chosen items ahead of new results', () => {
    expect(mergeItems([ITEMS[0]], [ITEMS[1], ITEMS[0]]).map((i) => i.value)).toEqual(['pl', 'us']);
    expect(SELECTION_MAX_HEIGHT).toBe('30vh');
  });

  it('searches only terms strictly longer than the minimum', () => {
    expect(isSearchable('ab', 1)).toBe(true);
    expect(isSearchable(' a ', 1)).toBe(false);
    expect(isSearchable('abcd', 3)).toBe(true);
    expect(isSearchable('abc', 3)).toBe(false);
  });
});

describe('SearchSelect', () => {
  afterEach(() => jest.useRealTimers());

  it('says "not selected" and filters static items with the options\' prefix and description', () => {
    renderWithMantine(<Single />);
    const input = inputLabelled('Country');
    expect(input).toHaveAttribute('placeholder', 'Not selected');
    input.focus();
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: 'uni' } });
    expect(screen.getByText('United States')).toBeInTheDocument();
    expect(screen.getByText('North America')).toBeInTheDocument();
    expect(screen.queryByText('Poland')).toBeNull();
    fireEvent.change(input, { target: { value: 'zzz' } });
    expect(screen.getByText('No results')).toBeInTheDocument();
  });

  it('asks a remote search once, 300 ms after typing stops, and keeps the chosen label', async () => {
    jest.useFakeTimers();
    const search = jest.fn(async (term: string) => ITEMS.filter((i) => i.label.toLowerCase().includes(term.toLowerCase())));
    renderWithMantine(<Single search={search} />);
    const input = inputLabelled('Country');
    input.focus();
    fireEvent.click(input);
    expect(screen.getByText('Type to filter')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'ge' } });
    act(() => jest.advanceTimersByTime(200));
    fireEvent.change(input, { target: { value: 'germ' } });
    act(() => jest.advanceTimersByTime(299));
    expect(search).not.toHaveBeenCalled();
    await act(async () => jest.advanceTimersByTime(1));
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith('germ');
    fireEvent.click(await screen.findByText('Germany'));
    expect(input).toHaveValue('Germany');
  });
});

describe('SearchMultiSelect', () => {
  it('collects several values and hands their items over', () => {
    const onChange = jest.fn();
    function Multi() {
      const [value, setValue] = useState<string[]>(['pl']);
      return (
        <SearchMultiSelect
          label="Countries"
          items={ITEMS}
          value={value}
          onChange={(values, items) => {
            setValue(values);
            onChange(values, items);
          }}
        />
      );
    }
    renderWithMantine(<Multi />);
    const input = inputLabelled('Countries');
    input.focus();
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: 'Germ' } });
    fireEvent.click(screen.getByText('Germany'));
    expect(onChange).toHaveBeenLastCalledWith(['pl', 'de'], [ITEMS[0], ITEMS[2]]);
  });
});
