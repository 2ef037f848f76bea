import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import { renderWithMantine } from '../../../jest/render';
import { InstanceOwnerCard } from './InstanceOwnerCard';

const ADA = { code: 'U_ada', name: 'Ada', surname: 'Lovelace', avatar: { code: 'initials', url: null } };
const fetchMock = jest.fn();
const answer = (status: number, body: unknown) => ({
  status,
  ok: status < 400,
  headers: { get: () => 'application/json' },
  text: async () => JSON.stringify(body),
});

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url: string) => (String(url).endsWith('/api/user/search') ? answer(200, [ADA]) : answer(200, { code: 'I_one' })));
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('InstanceOwnerCard', () => {
  it('appoints the person picked in the user search as the owner of the instance', async () => {
    renderWithMantine(<InstanceOwnerCard instanceCode="I_one" />);
    expect(screen.getByText(/Nobody becomes an admin by registering first/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('instance-owner-pick'));
    fireEvent.change(screen.getByTestId('user-search-query'), { target: { value: 'lovelace' } });
    const ada = await screen.findByRole('checkbox', { name: /Ada Lovelace/ });
    fireEvent.click(ada);
    await act(async () => fireEvent.click(screen.getByTestId('user-search-confirm')));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/api/Instance/I_one/owner'))).toBe(true));
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/api/Instance/I_one/owner'))!;
    expect([init.method, JSON.parse(init.body)]).toEqual(['PUT', { userCode: 'U_ada' }]);
  });
});
