import { proxy } from 'valtio';
import type { Timezone, User } from '@/api/types';
import type { Presence } from '@/components/presence/presence';

export interface ProfileView {
  user: User | null;
  presence: Presence | null;
  loading: boolean;
  notFound: boolean;
}

export interface ProfileState {
  /** Whose profile the view holds: a user code, or '' for the own profile. */
  viewOf: string | null;
  /** The profile on screen. */
  view: ProfileView;
  /** The time zones the edit form offers (none until read, or when the read failed). */
  timezones: Timezone[];
}

export const initialProfileView = (): ProfileView => ({ user: null, presence: null, loading: true, notFound: false });

export const profileStore = proxy<ProfileState>({ viewOf: null, view: initialProfileView(), timezones: [] });

export function resetProfile(): void {
  profileStore.viewOf = null;
  profileStore.view = initialProfileView();
  profileStore.timezones = [];
}

/** The view key of a profile address: the code, or '' for the own profile (no code, or the session user's). */
export const profileKey = (code: string | undefined, own: Pick<User, 'code'> | null): string => (!code || code === own?.code ? '' : code);
