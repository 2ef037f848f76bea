import { MENU_WIDTH, menuModeFor, menuStorageKey, readMenuOpened, writeMenuOpened } from './menu-mode';

describe('menu mode', () => {
  it('is over at 769 px and less, bar above', () => {
    expect(menuModeFor(320)).toBe('over');
    expect(menuModeFor(700)).toBe('over');
    expect(menuModeFor(769)).toBe('over');
    expect(menuModeFor(770)).toBe('bar');
    expect(menuModeFor(1440)).toBe('bar');
    expect(MENU_WIDTH).toBe(260);
  });

  it('remembers the open state per mode under menu.{mode}.opened, open by default', () => {
    expect(menuStorageKey('over')).toBe('menu.over.opened');
    expect(menuStorageKey('bar')).toBe('menu.bar.opened');
    expect(readMenuOpened('over')).toBe(true);
    expect(readMenuOpened('bar')).toBe(true);
    writeMenuOpened('over', false);
    expect(localStorage.getItem('menu.over.opened')).toBe('false');
    expect(readMenuOpened('over')).toBe(false);
    expect(readMenuOpened('bar')).toBe(true);
    writeMenuOpened('over', true);
    expect(readMenuOpened('over')).toBe(true);
  });
});
