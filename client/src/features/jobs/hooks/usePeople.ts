import { useEffect, useState } from 'react';
import type { User } from '@/api/types';
import { userApi } from '@/api/user.api';

/** Names and avatars of these users (one lookup per set; unknown ones stay absent). */
export function usePeople(codes: readonly string[]): Record<string, User> {
  const key = [...new Set(codes)].sort().join(',');
  const [people, setPeople] = useState<Record<string, User>>({});
  useEffect(() => {
    if (!key) return;
    let live = true;
    userApi
      .list(key.split(','))
      .then((users) => live && setPeople((held) => ({ ...held, ...Object.fromEntries(users.map((u) => [u.code, u])) })))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [key]);
  return people;
}
