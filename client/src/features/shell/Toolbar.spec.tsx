import { act, screen } from '@testing-library/react';
import { applyUnread, resetChat } from '@/features/chat/chat.store';
import { renderRoutes } from '../../../jest/render';
import { Toolbar } from './Toolbar';
import { toolbarStore } from './toolbar.store';

describe('toolbar', () => {
  it('truncates the header to 40 and the subheader to 100 characters', async () => {
    renderRoutes([{ path: '*', element: <Toolbar menuOpened onToggleMenu={() => undefined} /> }], '/');
    await act(async () => {
      toolbarStore.header = 'H'.repeat(60);
      toolbarStore.subheader = 'S'.repeat(150);
    });
    expect(screen.getByTestId('toolbar-header').textContent).toHaveLength(40);
    expect(screen.getByTestId('toolbar-header').textContent?.endsWith('…')).toBe(true);
    expect(screen.getByTestId('toolbar-subheader').textContent).toHaveLength(100);
    expect(screen.getByTestId('back-button')).toBeDisabled();
    expect(screen.getByTestId('login-entry')).toHaveAttribute('href', '/auth');
  });

  it('shows the unread count on the menu button while the menu is closed, and not while it is open', async () => {
    resetChat();
    const view = renderRoutes([{ path: '*', element: <Toolbar menuOpened={false} onToggleMenu={() => undefined} /> }], '/');
    expect(screen.getByTestId('menu-toggle-unread')).toHaveAttribute('data-count', '0');
    await act(async () => applyUnread({ total: 3, groups: { G_one: 3 } }, true));
    expect(screen.getByTestId('menu-toggle-unread')).toHaveAttribute('data-count', '3');
    expect(screen.getByTestId('menu-toggle-unread').textContent).toContain('3');
    expect(screen.getByTestId('menu-toggle').getAttribute('aria-label')).toMatch(/3/);
    view.unmount();
    renderRoutes([{ path: '*', element: <Toolbar menuOpened onToggleMenu={() => undefined} /> }], '/');
    expect(screen.getByTestId('menu-toggle-unread')).toHaveAttribute('data-count', '0');
    expect(screen.getByTestId('menu-toggle-unread').textContent).not.toContain('3');
    await act(async () => resetChat());
  });
});
