import { userApi } from '@/api/user.api';
import { guardCache } from '@/app/guards/guard-cache';
import { notify } from '@/components/notifications/notify';
import { tokenExpiringIn } from '../../../jest/fake-token';
import { clearSession, login, logout, refreshToken, startSession } from './session.actions';
import { TOKEN_KEY, roleOf, sessionStore } from './session.store';

jest.mock('@/api/user.api', () => ({
  userApi: { me: jest.fn(), refresh: jest.fn(), login: jest.fn(), logout: jest.fn(), register: jest.fn() },
}));
jest.mock('@/components/notifications/notify', () => ({
  notify: { error: jest.fn(), success: jest.fn(), info: jest.fn() },
}));

const api = userApi as jest.Mocked<typeof userApi>;
const user = { code: 'U1', name: 'Ada', surname: 'L', type: 1, avatar: null, country: null, lang: 'eng', timezone: null, jobIds: [], away: 0 };

beforeEach(() => {
  jest.useFakeTimers({ now: new Date('2025-01-01T12:00:00Z') });
  jest.clearAllMocks();
  api.logout.mockResolvedValue(undefined);
});

afterEach(() => {
  clearSession();
  jest.useRealTimers();
});

describe('app start', () => {
  it('is checked at once without a stored token and calls nothing', async () => {
    await startSession();
    expect(api.me).not.toHaveBeenCalled();
    expect(sessionStore.status).toBe('checked');
    expect(roleOf(sessionStore)).toBe(-1);
  });

  it('loads the user with a stored token and refreshes 20 s before expiry', async () => {
    const token = tokenExpiringIn(900, 50);
    localStorage.setItem(TOKEN_KEY, token);
    api.me.mockResolvedValue(user);
    const next = tokenExpiringIn(1800, 50);
    api.refresh.mockResolvedValue({ token: next, user, redirectUrl: '/' });

    await startSession();
    expect(api.me).toHaveBeenCalledTimes(1);
    expect(sessionStore.status).toBe('checked');
    expect(sessionStore.user).toEqual(user);
    expect(roleOf(sessionStore)).toBe(50);

    await jest.advanceTimersByTimeAsync(880_000 - 1);
    expect(api.refresh).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(sessionStore.token).toBe(next);
    expect(localStorage.getItem(TOKEN_KEY)).toBe(next);
  });

  it('refreshes a token that expired less than 600 s ago', async () => {
    localStorage.setItem(TOKEN_KEY, tokenExpiringIn(-599));
    const next = tokenExpiringIn(900);
    api.refresh.mockResolvedValue({ token: next, user, redirectUrl: '/' });
    await startSession();
    expect(api.refresh).toHaveBeenCalledTimes(1);
    expect(sessionStore.token).toBe(next);
    expect(sessionStore.status).toBe('checked');
  });

  it("refuses a token that expired 600 s ago or more: 'Session expired' and logout", async () => {
    localStorage.setItem(TOKEN_KEY, tokenExpiringIn(-600));
    await startSession();
    expect(api.refresh).not.toHaveBeenCalled();
    expect(api.me).not.toHaveBeenCalled();
    expect(notify.error).toHaveBeenCalledWith('Session expired');
    expect(api.logout).toHaveBeenCalled();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStore.token).toBeNull();
    expect(sessionStore.status).toBe('checked');
  });

  it('drops a token the server no longer accepts', async () => {
    localStorage.setItem(TOKEN_KEY, tokenExpiringIn(900));
    api.me.mockRejectedValue(new Error('401'));
    await startSession();
    expect(sessionStore.token).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStore.status).toBe('checked');
  });
});

describe('refresh and login failures', () => {
  it('logs out, clears the token and reloads guards when a refresh fails', async () => {
    api.login.mockResolvedValue({ token: tokenExpiringIn(900), user, redirectUrl: '/' });
    await login({ email: 'a@b.c', password: 'x', rememberMe: false });
    guardCache.resolve('/x', { rules: [] }, { role: 0, environment: null });
    const version = sessionStore.guardsVersion;
    api.refresh.mockRejectedValue(new Error('refused'));

    expect(await refreshToken()).toBe(false);
    expect(sessionStore.token).toBeNull();
    expect(sessionStore.user).toBeNull();
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStore.guardsVersion).toBeGreaterThan(version);
    expect(guardCache.size).toBe(0);
  });

  it('clears the token when login fails and passes the error on', async () => {
    localStorage.setItem(TOKEN_KEY, 'stale');
    api.login.mockRejectedValue(new Error('bad credentials'));
    await expect(login({ email: 'a@b.c', password: 'x', rememberMe: true })).rejects.toThrow('bad credentials');
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull();
    expect(sessionStore.user).toBeNull();
  });

  it('stops the scheduled refresh on logout', async () => {
    api.login.mockResolvedValue({ token: tokenExpiringIn(60), user, redirectUrl: '/' });
    await login({ email: 'a@b.c', password: 'x', rememberMe: false });
    await logout();
    expect(api.logout).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(120_000);
    expect(api.refresh).not.toHaveBeenCalled();
  });
});

describe('refresh across tabs', () => {
  it('adopts a fresh token another tab stored meanwhile instead of using the refresh cookie again', async () => {
    const mine = tokenExpiringIn(60, 50);
    localStorage.setItem(TOKEN_KEY, mine);
    api.me.mockResolvedValue(user);
    await startSession();
    const fromOtherTab = tokenExpiringIn(900, 50);
    localStorage.setItem(TOKEN_KEY, fromOtherTab);

    expect(await refreshToken()).toBe(true);
    expect(api.refresh).not.toHaveBeenCalled();
    expect(sessionStore.token).toBe(fromOtherTab);
  });
});
