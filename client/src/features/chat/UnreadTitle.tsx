import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { instanceStore } from '@/features/instance/instance.store';
import { sessionStore } from '@/features/session/session.store';
import { chatStore } from './chat.store';
import { titleWithUnread } from './reading/reading-position';

const FALLBACK_TITLE = 'Parley';

/** The tab's title: the instance's name, after the unread total while there is any ('(3) Parley'). Renders nothing. */
export function UnreadTitle() {
  const { name } = useSnapshot(instanceStore).current;
  const loggedIn = Boolean(useSnapshot(sessionStore).user);
  const { total } = useSnapshot(chatStore).unread;

  useEffect(() => {
    document.title = titleWithUnread(name || FALLBACK_TITLE, loggedIn ? total : 0);
  }, [name, loggedIn, total]);

  return null;
}
