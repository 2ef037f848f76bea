import { screen } from '@testing-library/react';
import type { User } from '@/api/types';
import { guardCache } from '@/app/guards/guard-cache';
import { sessionStore } from '@/features/session/session.store';
import { renderRoutes } from '../../../jest/render';
import { tokenExpiringIn } from '../../../jest/fake-token';
import { SideMenu } from './SideMenu';

function signIn(role: number | null) {
  guardCache.clear();
  sessionStore.token = role === null ? null : tokenExpiringIn(900, role);
  sessionStore.user = role === null ? null : ({ code: 'U1', name: 'A', surname: 'B' } as User);
}

const renderMenu = (at = '/') => renderRoutes([{ path: '*', element: <SideMenu /> }], at);
const entry = (path: string) => document.querySelector(`[data-path="${path}"]`);

afterEach(() => signIn(null));

describe('side menu', () => {
  it('shows a guest only what guards allow (the capsule on localhost)', () => {
    signIn(null);
    renderMenu();
    expect(entry('/capsule')).not.toBeNull();
    expect(entry('/')).toBeNull();
    expect(entry('/messages')).toBeNull();
    expect(entry('/admin')).toBeNull();
  });

  it('hides admin from an instance user and shows it to an instance admin', () => {
    signIn(0);
    const first = renderMenu();
    expect(entry('/messages')).not.toBeNull();
    expect(entry('/admin')).toBeNull();
    expect(entry('/capsule')).toBeNull();
    first.unmount();
    signIn(50);
    renderMenu();
    expect(entry('/admin')).not.toBeNull();
  });

  it('highlights the active entry, opens its parent and shows state badges', () => {
    signIn(0);
    renderMenu('/jobs/offers');
    const offers = document.querySelector('a[data-path="/jobs/offers"]');
    expect(offers).toHaveAttribute('data-active', 'true');
    expect(document.querySelector('a[data-path="/jobs/payments"]')).not.toHaveAttribute('data-active');
    expect(screen.getAllByText('beta').length).toBeGreaterThan(0);
    expect(screen.getAllByText('alfa').length).toBeGreaterThan(0);
    expect(document.querySelector('[data-path="/messages"]')).toHaveAttribute('data-state', 'beta');
    expect(document.querySelector('[data-path="/"]')).toHaveAttribute('data-state', 'stable');
  });
});
