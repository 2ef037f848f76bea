import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import type { User } from '@/api/types';
import { renderWithMantine } from '../../../jest/render';
import { ProfileEditForm } from './ProfileEditForm';

const USER: User = {
  code: 'U_ada',
  name: 'Ada',
  surname: 'Lovelace',
  type: 1,
  avatar: { code: 'initials', url: null },
  country: null,
  lang: 'eng',
  timezone: null,
  jobIds: [],
  away: 0,
};
const fetchMock = jest.fn();
const answer = (status: number, body: unknown) => ({
  status,
  ok: status < 400,
  headers: { get: () => 'application/json' },
  text: async () => JSON.stringify(body),
});

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (url: string, init?: { method?: string; body?: string }) => {
    if (String(url).endsWith('/api/timezone')) return answer(200, []);
    const sent = JSON.parse(init?.body ?? '{}') as { gravatar?: boolean };
    return answer(200, { ...USER, avatar: sent.gravatar ? { code: 'gravatar', url: 'https://www.gravatar.com/avatar/x' } : USER.avatar });
  });
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('ProfileEditForm', () => {
  it('leaves Gravatar off by default, explains what it reveals, and saves the opt-in', async () => {
    const onSaved = jest.fn();
    renderWithMantine(<ProfileEditForm user={USER} onSaved={onSaved} />);
    const gravatar = screen.getByTestId('profile-gravatar');
    expect(gravatar).not.toBeChecked();
    expect(screen.getByText(/hash of your e-mail address/)).toBeInTheDocument();

    fireEvent.click(gravatar);
    await act(async () => fireEvent.click(screen.getByTestId('profile-save')));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const patch = fetchMock.mock.calls.find(([url, init]) => String(url).endsWith('/api/me') && init?.method === 'PATCH');
    expect(JSON.parse(patch![1].body)).toMatchObject({ gravatar: true });
    expect(onSaved.mock.calls[0][0].avatar.code).toBe('gravatar');
  });
});
