import { act, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { renderWithMantine } from '../../../jest/render';

/** The text input itself (the listbox carries the same label). */
const inputLabelled = (label: string) => screen.getAllByLabelText(label).find((el) => el.tagName === 'INPUT') as HTMLInputElement;
import { type TagItem, TagInput } from './TagInput';

const TAGS: TagItem[] = [
  { key: '1', value: 'react', label: 'react', icon: '⚛' },
  { key: '2', value: 'redux', label: 'redux' },
];

function Tags({ search, initial = [] }: { search: (term: string) => Promise<TagItem[]>; initial?: string[] }) {
  const [value, setValue] = useState<string[]>(initial);
  return (
    <>
      <TagInput label="Tags" value={value} onChange={setValue} search={search} />
      <output data-testid="tags">{value.join(',')}</output>
    </>
  );
}

describe('TagInput', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('searches suggestions only for a term longer than 1 character, 300 ms after typing stops', async () => {
    const search = jest.fn(async (term: string) => TAGS.filter((tag) => tag.value.startsWith(term)));
    renderWithMantine(<Tags search={search} />);
    const input = inputLabelled('Tags');
    input.focus();
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: 'r' } });
    act(() => jest.advanceTimersByTime(1000));
    expect(search).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: 're' } });
    act(() => jest.advanceTimersByTime(299));
    expect(search).not.toHaveBeenCalled();
    await act(async () => jest.advanceTimersByTime(1));
    expect(search).toHaveBeenCalledWith('re');
    expect(await screen.findByText('redux')).toBeInTheDocument();
    expect(screen.getByText('⚛')).toBeInTheDocument();
    fireEvent.click(screen.getByText('redux'));
    expect(screen.getByTestId('tags')).toHaveTextContent('redux');
  });

  it('does not suggest a tag that is already chosen', async () => {
    const search = jest.fn(async () => TAGS);
    renderWithMantine(<Tags search={search} initial={['react']} />);
    const input = inputLabelled('Tags');
    input.focus();
    fireEvent.click(input);
    fireEvent.change(input, { target: { value: 're' } });
    await act(async () => jest.advanceTimersByTime(300));
    expect(await screen.findByRole('option', { name: 'redux' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /react/ })).toBeNull();
  });
});
