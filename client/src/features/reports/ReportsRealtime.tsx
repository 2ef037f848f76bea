import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { notify } from '@/components/notifications/notify';
import { sessionStore } from '@/features/session/session.store';
import { t } from '@/i18n/i18n';
import { realtimeConnection } from '@/realtime/RealtimeConnection';
import { subscribeSocket } from '@/realtime/subscribe';
import { loadBlocks, resetBlocks } from './blocks.store';
import { ReportDialog } from './ReportDialog';
import { OUTCOME_LABELS } from './report-labels';

/**
 * The signed-in user's blocks (loaded once), the report dialog, and what moderators tell them: the outcome of
 * their report (`report:resolved`) and a warning (`moderation:warning`), each as a notification.
 */
export function ReportsRealtime() {
  const { token, user } = useSnapshot(sessionStore);
  const loggedIn = Boolean(token && user);
  useEffect(() => {
    if (!loggedIn) return resetBlocks();
    void loadBlocks().catch(() => undefined);
    return subscribeSocket(realtimeConnection().connect(), {
      'report:resolved': (payload) => notify.info(t(OUTCOME_LABELS[payload.action]), t('REPORTS.OUTCOME_TITLE')),
      'moderation:warning': () => notify.error(t('REPORTS.WARNED'), t('REPORTS.WARNED_TITLE')),
    });
  }, [loggedIn]);
  return loggedIn ? <ReportDialog /> : null;
}
