import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { User } from '@/api/types';
import { abandonProfileLoad, loadProfile } from './profile.actions';
import { type ProfileView, initialProfileView, profileKey, profileStore } from './profile.store';

/** Loads a user by code with their presence; `own` (the session user) needs no request. */
export function useProfile(code: string | undefined, own: User | null): ProfileView {
  useEffect(() => {
    void loadProfile(code, own);
    return abandonProfileLoad;
  }, [code, own]);
  const { viewOf, view } = useSnapshot(profileStore);
  // Until the load starts, the store may still hold a profile shown earlier.
  return viewOf === profileKey(code, own) ? (view as ProfileView) : initialProfileView();
}
