import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { sessionStore } from '@/features/session/session.store';
import { showAppBadge } from './app-badge';
import { chatStore } from './chat.store';

/** The home-screen icon's badge follows the unread total (cleared when logged out). Renders nothing. */
export function AppBadge() {
  const loggedIn = Boolean(useSnapshot(sessionStore).user);
  const { total } = useSnapshot(chatStore).unread;

  useEffect(() => {
    showAppBadge(navigator as Navigator & Parameters<typeof showAppBadge>[0], loggedIn ? total : 0);
  }, [loggedIn, total]);

  return null;
}
