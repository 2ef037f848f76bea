import { proxy } from 'valtio';
import type { Instance } from '@/api/types';

export interface AdminState {
  /** The full instance being customised (with its custom CSS), once read; the public summary lacks the CSS. */
  settings: Instance | null;
  /** The owner appointment under way (its button shows a loader). */
  appointing: boolean;
}

export const adminStore = proxy<AdminState>({ settings: null, appointing: false });

export function resetAdmin(): void {
  adminStore.settings = null;
  adminStore.appointing = false;
}
