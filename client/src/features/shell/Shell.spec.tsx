import { act, fireEvent, screen } from '@testing-library/react';
import { renderRoutes } from '../../../jest/render';
import { Shell } from './Shell';

function renderShell(width: number, path = '/') {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
  return renderRoutes([{ path: '*', element: <Shell /> }], path);
}

describe('shell menu modes', () => {
  it('uses the overlay at 769 px and less, open by default, remembering a close under menu.over.opened', async () => {
    renderShell(700);
    const shell = screen.getByTestId('shell');
    expect(shell).toHaveAttribute('data-menu-mode', 'over');
    expect(shell).toHaveAttribute('data-menu-opened', 'true');
    fireEvent.click(screen.getByTestId('menu-toggle'));
    expect(shell).toHaveAttribute('data-menu-opened', 'false');
    expect(localStorage.getItem('menu.over.opened')).toBe('false');
    expect(localStorage.getItem('menu.bar.opened')).toBeNull();
  });

  it('uses the bar above 769 px with its own remembered state, and switches on resize', async () => {
    localStorage.setItem('menu.over.opened', 'false');
    renderShell(1024);
    const shell = screen.getByTestId('shell');
    expect(shell).toHaveAttribute('data-menu-mode', 'bar');
    expect(shell).toHaveAttribute('data-menu-opened', 'true');
    await act(async () => {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: 769 });
      window.dispatchEvent(new Event('resize'));
    });
    expect(shell).toHaveAttribute('data-menu-mode', 'over');
    expect(shell).toHaveAttribute('data-menu-opened', 'false');
  });

  it('keeps the overlay closed on the sign-in pages, where it would cover the form, and opens it there when asked', () => {
    renderShell(390, '/auth');
    const shell = screen.getByTestId('shell');
    expect(shell).toHaveAttribute('data-menu-mode', 'over');
    expect(shell).toHaveAttribute('data-menu-opened', 'false');
    fireEvent.click(screen.getByTestId('menu-toggle'));
    expect(shell).toHaveAttribute('data-menu-opened', 'true');
  });
});
