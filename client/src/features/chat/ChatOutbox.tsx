import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { sessionStore } from '@/features/session/session.store';
import { startOutbox } from './sending/outbox';

/** Keeps the signed-in user's unsent messages across reloads and sends them again (see sending/outbox.ts). Renders nothing. */
export function ChatOutbox() {
  const { token, user } = useSnapshot(sessionStore);
  const userCode = token && user ? user.code : null;
  useEffect(() => (userCode ? startOutbox(userCode) : undefined), [userCode]);
  return null;
}
