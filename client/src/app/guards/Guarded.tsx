import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { notify } from '@/components/notifications/notify';
import { t } from '@/i18n/i18n';
import { paths, toLogin } from '@/routes/paths';
import { guardFor, guestsOnlyGuard } from './route-guards';
import { useGuardOutcome } from './useGuard';

/** A logged-in user without the role waits this long before being sent to the dashboard. */
export const DENIED_REDIRECT_MS = 200;

/**
 * Renders a route only if its guard allows; guests go to login with 'after', others to / after 200 ms,
 * told why (a logged-in user sent away from the login page needs no telling).
 */
export function Guarded({ path, children }: { path: string; children: ReactNode }) {
  const outcome = useGuardOutcome()(path);
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    if (outcome !== 'deny') return;
    const deniedAt = location.pathname;
    const timer = setTimeout(() => {
      // A navigation that started meanwhile (e.g. to 'after' right after login) wins; this page may
      // still be on screen only because the next page is loading.
      if (window.location.pathname !== deniedAt) return;
      if (guardFor(path) !== guestsOnlyGuard) notify.error(t('SHELL.ACCESS_DENIED'));
      navigate(paths.dashboard, { replace: true });
    }, DENIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [outcome, navigate, location.pathname, path]);

  if (outcome === 'login') return <Navigate to={toLogin(`${location.pathname}${location.search}${location.hash}`)} replace />;
  if (outcome === 'deny') return null;
  return <>{children}</>;
}
