import { proxy } from 'valtio';
import type { Instance } from '@/api/types';

export const DEFAULT_INSTANCE: Instance = { code: '', name: 'Parley', color: '228be6', accent: '7950f2', logoUrl: null };

export interface InstanceState {
  current: Instance;
  loaded: boolean;
  /** Bumped after a save so the browser fetches /instance/styles.css again. */
  stylesVersion: number;
}

export const instanceStore = proxy<InstanceState>({ current: { ...DEFAULT_INSTANCE }, loaded: false, stylesVersion: 0 });
