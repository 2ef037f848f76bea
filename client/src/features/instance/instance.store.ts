import { proxy } from 'valtio';
import type { Instance } from '@/api/types';

export const DEFAULT_INSTANCE: Instance = { code: '', name: 'Parley', color: '228be6', accent: '7950f2', logoUrl: null };

export interface InstanceState {
  current: Instance;
  loaded: boolean;
  /** Changed after a save (here, or pushed from another tab) so the browser fetches /instance/styles.css again; '' at first. */
  stylesVersion: string;
}

export const instanceStore = proxy<InstanceState>({ current: { ...DEFAULT_INSTANCE }, loaded: false, stylesVersion: '' });
