import { act, fireEvent, screen } from '@testing-library/react';
import { clearResponseCache, configureHttp } from '@/api/http';
import type { User } from '@/api/types';
import { sessionStore } from '@/features/session/session.store';
import { renderRoutes } from '../../../jest/render';
import { ProfilePage } from './ProfilePage';

const ADA: User = {
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
const BOB: User = { ...ADA, code: 'U_bob', name: 'Bob', surname: 'Builder' };

const fetchMock = jest.fn(async (url: string, init: { method: string; body?: string }) => {
  const key = `${init.method} ${new URL(url, 'http://x').pathname}`;
  const answers: Record<string, () => [number, unknown]> = {
    'GET /api/user/U_bob': () => [200, BOB],
    'POST /api/user/statuses': () => [200, []],
    'GET /api/timezone': () => [200, []],
    'PATCH /api/me': () => [200, { ...ADA, ...JSON.parse(init.body ?? '{}') }],
  };
  const [status, body] = answers[key]?.() ?? [404, { code: 404, message: 'SHARED.ERROR.NOT_FOUND' }];
  return { status, ok: status < 400, headers: { get: () => 'application/json' }, text: async () => JSON.stringify(body) };
});
const settle = () =>
  act(async () => {
    for (let i = 0; i < 30; i++) await Promise.resolve();
  });

beforeEach(() => {
  sessionStore.token = 'T';
  sessionStore.user = ADA;
  Object.assign(globalThis, { fetch: fetchMock });
  clearResponseCache();
  configureHttp({ getToken: () => 'T', onError: () => undefined });
});

describe('ProfilePage', () => {
  it('shows the own profile, and its new name once an edit is saved', async () => {
    renderRoutes([{ path: '/u/:userCode', element: <ProfilePage /> }], '/u/U_ada');
    await settle();
    expect(screen.getByTestId('profile-name')).toHaveTextContent('Ada Lovelace');
    fireEvent.change(screen.getByLabelText('Surname'), { target: { value: 'King' } });
    await act(async () => fireEvent.click(screen.getByTestId('profile-save')));
    await settle();
    expect(screen.getByTestId('profile-name')).toHaveTextContent('Ada King');
  });

  it("shows another user's profile, and says so for one that does not exist", async () => {
    const { unmount } = renderRoutes([{ path: '/u/:userCode', element: <ProfilePage /> }], '/u/U_bob');
    await settle();
    expect(screen.getByTestId('profile-name')).toHaveTextContent('Bob Builder');
    expect(screen.queryByTestId('profile-form')).toBeNull();
    unmount();
    renderRoutes([{ path: '/u/:userCode', element: <ProfilePage /> }], '/u/U_nobody');
    await settle();
    expect(screen.getByTestId('profile-not-found')).toBeInTheDocument();
  });
});
