import { createErrorHandler } from '@/api/error-handler';
import { configureHttp } from '@/api/http';
import { notify } from '@/components/notifications/notify';
import { loadInstance } from '@/features/instance/instance.actions';
import { loadPreferences } from '@/features/preferences/preferences.store';
import { checkUser, logout, startSession } from '@/features/session/session.actions';
import { sessionStore } from '@/features/session/session.store';
import { initI18n } from '@/i18n/i18n';
import { translateMessage, translateRule } from '@/i18n/messages';

/** Everything that runs once before the first render: preferences, i18n, HTTP, instance, session. */
export function bootstrap(): void {
  initI18n(loadPreferences());
  configureHttp({
    getToken: () => sessionStore.token,
    onError: createErrorHandler({
      hasSession: () => sessionStore.token !== null,
      recheckUser: checkUser,
      expireSession: () => void logout(),
      showError: (text) => notify.error(text),
      translate: translateMessage,
      translateRule,
    }),
  });
  void loadInstance();
  void startSession();
}
