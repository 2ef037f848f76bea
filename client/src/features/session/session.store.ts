import { proxy } from 'valtio';
import type { User } from '@/api/types';
import { Role } from './roles';
import { decodeToken } from './token';

export interface SessionState {
  token: string | null;
  user: User | null;
  /** 'unchecked' until the first /api/me finishes: the full-page loader shows until then. */
  status: 'unchecked' | 'checked';
  /** Bumped whenever guards must be evaluated again. */
  guardsVersion: number;
}

export const TOKEN_KEY = 'token';

export const sessionStore = proxy<SessionState>({ token: null, user: null, status: 'unchecked', guardsVersion: 0 });

/** The role comes from the token; without a checked user it is anonymous. */
export function roleOf(state: { token: string | null; user: object | null }): number {
  if (!state.user) return Role.Anonymous;
  return decodeToken(state.token)?.role ?? Role.Anonymous;
}

export const isLoggedIn = (state: { token: string | null; user: object | null }): boolean => roleOf(state) !== Role.Anonymous;
