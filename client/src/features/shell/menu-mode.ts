import { readStorage, writeStorage } from '@/features/preferences/preferences';

/** Widths of 769 and less use the overlay menu. */
export const OVER_MODE_MAX_WIDTH = 769;
export const MENU_WIDTH = 260;

export type MenuMode = 'over' | 'bar';

export const menuModeFor = (width: number): MenuMode => (width <= OVER_MODE_MAX_WIDTH ? 'over' : 'bar');

export const menuStorageKey = (mode: MenuMode): string => `menu.${mode}.opened`;

/** The remembered open state of a mode; open when nothing is stored. */
export function readMenuOpened(mode: MenuMode): boolean {
  return readStorage(menuStorageKey(mode)) !== 'false';
}

export function writeMenuOpened(mode: MenuMode, opened: boolean): void {
  writeStorage(menuStorageKey(mode), String(opened));
}
