import { type ReactNode, useEffect } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { paths, toLogin } from '@/routes/paths';
import { useGuardOutcome } from './useGuard';

/** A logged-in user without the role waits this long before being sent to the dashboard. */
export const DENIED_REDIRECT_MS = 200;

/** Renders a route only if its guard allows; guests go to login with 'after', others to / after 200 ms. */
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
      if (window.location.pathname === deniedAt) navigate(paths.dashboard, { replace: true });
    }, DENIED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [outcome, navigate, location.pathname]);

  if (outcome === 'login') return <Navigate to={toLogin(`${location.pathname}${location.search}${location.hash}`)} replace />;
  if (outcome === 'deny') return null;
  return <>{children}</>;
}
