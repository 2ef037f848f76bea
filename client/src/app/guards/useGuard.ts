import { useSnapshot } from 'valtio';
import { roleOf, sessionStore } from '@/features/session/session.store';
import { guardCache } from './guard-cache';
import { type GuardContext, type GuardOutcome, environmentOf } from './guard-rules';
import { guardFor } from './route-guards';

export const currentGuardContext = (role: number): GuardContext => ({
  role,
  environment: environmentOf(window.location.hostname),
});

/** The cached guard outcome of a route path for the current user; re-evaluated when guards reload. */
export function useGuardOutcome(): (path: string) => GuardOutcome {
  const session = useSnapshot(sessionStore);
  void session.guardsVersion;
  const ctx = currentGuardContext(roleOf(session));
  return (path: string) => guardCache.resolve(path, guardFor(path), ctx);
}
