import { useEffect, useState } from 'react';
import type { User } from '@/api/types';
import { userApi } from '@/api/user.api';
import { type Presence, presenceOf } from '@/components/presence/presence';

export interface ProfileState {
  user: User | null;
  presence: Presence | null;
  loading: boolean;
  notFound: boolean;
}

/** Loads a user by code with their presence; `own` (the session user) needs no request. */
export function useProfile(code: string | undefined, own: User | null): ProfileState {
  const [state, setState] = useState<ProfileState>({ user: null, presence: null, loading: true, notFound: false });

  useEffect(() => {
    let live = true;
    const isOwn = !code || code === own?.code;
    const load = async () => {
      setState((s) => ({ ...s, loading: true, notFound: false }));
      try {
        const user = isOwn ? own : await userApi.byCode(code);
        if (!user) throw new Error('no user');
        const statuses = await userApi.statuses([user.code]).catch(() => []);
        const status = statuses.find((s) => s.userCode === user.code);
        const presence = isOwn ? presenceOf(0) : status ? presenceOf(status.away, status.online) : presenceOf(user.away);
        if (live) setState({ user, presence, loading: false, notFound: false });
      } catch {
        if (live) setState({ user: null, presence: null, loading: false, notFound: true });
      }
    };
    void load();
    return () => {
      live = false;
    };
  }, [code, own]);

  return state;
}
