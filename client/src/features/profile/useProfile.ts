import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { User } from '@/api/types';
import { abandonProfileLoad, loadProfile } from './profile.actions';
import { type ProfileView, initialProfileView, profileKey, profileStore } from './profile.store';

/**
 * Loads a user by code with their presence; `own` (the session user) needs no request. A save of the own profile
 * updates the view itself (saveProfile); another session user loads again.
 */
export function useProfile(code: string | undefined, own: User | null): ProfileView {
  const ownCode = own?.code ?? null;
  useEffect(() => {
    void loadProfile(code);
    return abandonProfileLoad;
  }, [code, ownCode]);
  const { viewOf, view } = useSnapshot(profileStore);
  // Until the load starts, the store may still hold a profile shown earlier.
  return viewOf === profileKey(code, own) ? (view as ProfileView) : initialProfileView();
}
