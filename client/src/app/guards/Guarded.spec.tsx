import { act, screen } from '@testing-library/react';
import type { User } from '@/api/types';
import { sessionStore } from '@/features/session/session.store';
import { paths } from '@/routes/paths';
import { current, renderRoutes } from '../../../jest/render';
import { tokenExpiringIn } from '../../../jest/fake-token';
import { notify } from '@/components/notifications/notify';
import { guardCache } from './guard-cache';
import { DENIED_REDIRECT_MS, Guarded } from './Guarded';

const user = { code: 'U1', name: 'Ada', surname: 'L' } as User;

function routes() {
  const page = (path: string, text: string) => ({ path, element: <Guarded path={path}>{text}</Guarded> });
  return [
    page(paths.dashboard, 'dashboard page'),
    page(paths.auth, 'login page'),
    page(paths.admin, 'admin page'),
    page(paths.jobOffer, 'offer page'),
    page(paths.capsule, 'capsule page'),
  ];
}

function signIn(role: number | null) {
  guardCache.clear();
  sessionStore.token = role === null ? null : tokenExpiringIn(900, role);
  sessionStore.user = role === null ? null : user;
  sessionStore.status = 'checked';
}

let notifySpy: jest.SpyInstance;
beforeEach(() => {
  notifySpy = jest.spyOn(notify, 'error').mockImplementation(() => undefined as never);
});

afterEach(() => {
  notifySpy.mockRestore();
  signIn(null);
  jest.useRealTimers();
});

describe('Guarded', () => {
  it('sends a guest to /auth with the return address', async () => {
    signIn(null);
    renderRoutes(routes(), '/jobs/7/offers/AbC?tab=chat');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(current.location?.pathname).toBe('/auth');
    expect(current.location?.search).toBe(`?after=${encodeURIComponent('/jobs/7/offers/AbC?tab=chat')}`);
  });

  it('shows the page to a user whose role the guard allows', async () => {
    signIn(50);
    renderRoutes(routes(), '/admin');
    expect(await screen.findByText('admin page')).toBeInTheDocument();
  });

  it('sends a logged-in user without the role to / after 200 ms', async () => {
    jest.useFakeTimers();
    signIn(0);
    renderRoutes(routes(), '/admin');
    expect(screen.queryByText('admin page')).not.toBeInTheDocument();
    await act(async () => {
      jest.advanceTimersByTime(DENIED_REDIRECT_MS - 1);
    });
    expect(current.location?.pathname).toBe('/admin');
    await act(async () => {
      jest.advanceTimersByTime(1);
    });
    expect(current.location?.pathname).toBe('/');
    expect(screen.getByText('dashboard page')).toBeInTheDocument();
    // Told why, not bounced silently.
    expect(notifySpy).toHaveBeenCalledWith("You don't have the role this page needs, so you were taken to the dashboard.");
  });

  it('does not send to / when another navigation started within the 200 ms', async () => {
    jest.useFakeTimers();
    signIn(0);
    renderRoutes(routes(), '/admin');
    window.history.pushState({}, '', '/messages'); // the browser already moved on
    await act(async () => {
      jest.advanceTimersByTime(DENIED_REDIRECT_MS);
    });
    expect(current.location?.pathname).toBe('/admin');
  });

  it('keeps logged-in users away from the login page and shows the capsule to anonymous visitors on localhost', async () => {
    jest.useFakeTimers();
    signIn(10);
    renderRoutes(routes(), '/auth');
    await act(async () => {
      jest.advanceTimersByTime(DENIED_REDIRECT_MS);
    });
    expect(current.location?.pathname).toBe('/');
    expect(notifySpy).not.toHaveBeenCalled();
    signIn(null);
    jest.useRealTimers();
    renderRoutes(routes(), '/capsule');
    expect(await screen.findByText('capsule page')).toBeInTheDocument();
  });

  it('is evaluated again when the session changes (guards reloaded)', async () => {
    signIn(50);
    renderRoutes(routes(), '/admin');
    expect(await screen.findByText('admin page')).toBeInTheDocument();
    await act(async () => {
      signIn(null);
      sessionStore.guardsVersion += 1;
    });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(current.location?.search).toBe('?after=%2Fadmin');
  });
});
