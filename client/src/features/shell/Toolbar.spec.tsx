import { act, screen } from '@testing-library/react';
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
});
