import { useEffect, useRef } from 'react';
import { useSnapshot } from 'valtio';
import { refreshToken } from '@/features/session/session.actions';
import { sessionStore } from '@/features/session/session.store';
import { type RealtimeConnection as Connection, createRealtimeConnection } from './connection';

let connection: Connection | null = null;

/** The tab's one realtime connection (created on first use). */
export function realtimeConnection(): Connection {
  connection ??= createRealtimeConnection({ getToken: () => sessionStore.token, refreshToken });
  return connection;
}

/** Keeps the socket open while a user is logged in, and hands it each refreshed token. Renders nothing. */
export function RealtimeConnection() {
  const { token, user } = useSnapshot(sessionStore);
  const loggedIn = Boolean(token && user);
  const lastToken = useRef<string | null>(null);

  useEffect(() => {
    if (!loggedIn) {
      realtimeConnection().disconnect();
      return;
    }
    realtimeConnection().connect();
  }, [loggedIn]);

  useEffect(() => {
    if (token && lastToken.current && token !== lastToken.current) realtimeConnection().updateToken(token);
    lastToken.current = token;
  }, [token]);

  return null;
}
