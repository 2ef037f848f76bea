import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { sessionStore } from '@/features/session/session.store';
import { registerServiceWorker, workerLanguageChanged, workerUserChanged } from './service-worker';

/** Registers the background worker and keeps it told of user and language changes. Renders nothing. */
export function WorkerBridge() {
  const { token, user } = useSnapshot(sessionStore);
  const { language } = useSnapshot(preferencesStore);
  const userCode = user?.code ?? null;

  useEffect(() => {
    void registerServiceWorker().then(() => {
      workerUserChanged(sessionStore.token, sessionStore.user?.code ?? null);
      workerLanguageChanged(preferencesStore.language);
    });
  }, []);
  useEffect(() => workerUserChanged(token && userCode ? token : null, userCode), [token, userCode]);
  useEffect(() => workerLanguageChanged(language), [language]);
  return null;
}
