import { snapshot } from 'valtio';
import type { User } from '@/api/types';
import { type ProfileChanges, userApi } from '@/api/user.api';
import { presenceOf } from '@/components/presence/presence';
import { sessionStore } from '@/features/session/session.store';
import { initialProfileView, profileKey, profileStore } from './profile.store';

// Only the latest load may fill the view: an answer for a profile left meanwhile is dropped.
let latestLoad = 0;

/** Loads a user by code with their presence; the own profile (no code, or the session user's) needs no request. */
export async function loadProfile(code: string | undefined): Promise<void> {
  const load = ++latestLoad;
  // A plain copy of the session user: a component's tracked snapshot must not be read outside its render.
  const own = snapshot(sessionStore).user as User | null;
  const key = profileKey(code, own);
  const isOwn = key === '';
  // Another profile's view is not shown while this one loads.
  profileStore.view = profileStore.viewOf === key ? { ...profileStore.view, loading: true, notFound: false } : initialProfileView();
  profileStore.viewOf = key;
  try {
    const user = isOwn ? own : await userApi.byCode(key);
    if (!user) throw new Error('no user');
    const statuses = await userApi.statuses([user.code]).catch(() => []);
    const status = statuses.find((s) => s.userCode === user.code);
    const presence = isOwn ? presenceOf(0) : status ? presenceOf(status.away, status.online) : presenceOf(user.away);
    if (load === latestLoad) profileStore.view = { user, presence, loading: false, notFound: false };
  } catch {
    if (load === latestLoad) profileStore.view = { user: null, presence: null, loading: false, notFound: true };
  }
}

/** Stops a load under way from filling the view (the profile screen was left). */
export function abandonProfileLoad(): void {
  latestLoad += 1;
}

export async function loadTimezones(): Promise<void> {
  profileStore.timezones = await userApi.timezones().catch(() => []);
}

/**
 * Saves the session user's own profile (PATCH /api/me): the session and the own profile on screen take the saved
 * user. Answers it, or null when refused (the error handler showed why).
 */
export async function saveProfile(changes: ProfileChanges): Promise<User | null> {
  try {
    const updated = await userApi.updateMe(changes);
    sessionStore.user = updated;
    if (profileStore.viewOf === '' && profileStore.view.user) profileStore.view = { ...profileStore.view, user: updated };
    return updated;
  } catch {
    return null;
  }
}
