import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithMantine } from '../../../jest/render';
import { type UserSearchResult, UserSearchDialog } from './UserSearchDialog';

const ADA: UserSearchResult = { code: 'U_ada', name: 'Ada', surname: 'Lovelace', avatar: { code: null, url: null } };
const ALAN: UserSearchResult = { code: 'U_alan', name: 'Alan', surname: 'Turing', avatar: null };

describe('UserSearchDialog', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('searches only queries longer than 3 characters, 200 ms after typing stops, and returns the checked users', async () => {
    const search = jest.fn(async () => [ADA, ALAN]);
    const onConfirm = jest.fn();
    renderWithMantine(<UserSearchDialog opened onClose={() => undefined} onConfirm={onConfirm} search={search} excludeCodes={['U_alan']} />);
    const query = screen.getByTestId('user-search-query');
    fireEvent.change(query, { target: { value: 'ada' } });
    act(() => jest.advanceTimersByTime(1000));
    expect(search).not.toHaveBeenCalled();
    expect(screen.getByText('Type more than 3 characters to search')).toBeInTheDocument();

    fireEvent.change(query, { target: { value: 'ada l' } });
    act(() => jest.advanceTimersByTime(199));
    expect(search).not.toHaveBeenCalled();
    await act(async () => jest.advanceTimersByTime(1));
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith('ada l');

    // Excluded users are not offered.
    expect(screen.queryByTestId('user-search-result-U_alan')).toBeNull();
    expect(screen.getByTestId('user-search-confirm')).toBeDisabled();
    fireEvent.click(screen.getByRole('checkbox', { name: /Ada Lovelace/ }));
    fireEvent.click(screen.getByTestId('user-search-confirm'));
    expect(onConfirm).toHaveBeenCalledWith([ADA]);
  });

  it('says so when nothing matches', async () => {
    renderWithMantine(<UserSearchDialog opened onClose={() => undefined} onConfirm={() => undefined} search={async () => []} />);
    fireEvent.change(screen.getByTestId('user-search-query'), { target: { value: 'nobody' } });
    await act(async () => jest.advanceTimersByTime(200));
    expect(screen.getByText('No results')).toBeInTheDocument();
  });

  it('shows the code beside each of two people with the same name, also when one of them is already in the chat', async () => {
    const namesake: UserSearchResult = { ...ADA, code: 'U_ada_2' };
    // The second Alan is already in the chat: the first one still needs telling apart from him.
    const inChat: UserSearchResult = { ...ALAN, code: 'U_alan_2', name: 'Alan', surname: 'Turing' };
    const search = async () => [ADA, namesake, ALAN, inChat];
    renderWithMantine(<UserSearchDialog opened onClose={() => undefined} onConfirm={() => undefined} search={search} excludeCodes={['U_alan_2']} />);
    fireEvent.change(screen.getByTestId('user-search-query'), { target: { value: 'lovelace' } });
    await act(async () => jest.advanceTimersByTime(200));
    // Each checkbox is named by the person's name and, for namesakes, their code.
    expect(screen.getByRole('checkbox', { name: /Ada Lovelace\s*U_ada$/ })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Ada Lovelace\s*U_ada_2$/ })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: /Alan Turing\s*U_alan$/ })).toBeInTheDocument();
    expect(screen.getAllByTestId('user-search-result-code').map((el) => el.textContent)).toEqual(['U_ada', 'U_ada_2', 'U_alan']);
  });

  it('shows no codes when every name differs', async () => {
    renderWithMantine(<UserSearchDialog opened onClose={() => undefined} onConfirm={() => undefined} search={async () => [ADA, ALAN]} />);
    fireEvent.change(screen.getByTestId('user-search-query'), { target: { value: 'people' } });
    await act(async () => jest.advanceTimersByTime(200));
    expect(screen.getByTestId('user-search-result-U_ada')).toBeInTheDocument();
    expect(screen.queryByTestId('user-search-result-code')).toBeNull();
  });
});
