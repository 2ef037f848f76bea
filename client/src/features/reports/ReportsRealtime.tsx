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
import { markTold, markWarningTold, untoldOutcomes, untoldWarnings } from './report-outcomes';

/**
 * The signed-in user's blocks (loaded once), the report dialog, and what moderators tell them: the outcome of
 * their report (`report:resolved`, or on the next visit for one decided while they were away) and a warning
 * (`moderation:warning`, or on the next visit for one given while they were away), each as a notification.
 */
function warned(): void {
  notify.error(t('REPORTS.WARNED'), t('REPORTS.WARNED_TITLE'));
}

export function ReportsRealtime() {
  const { token, user } = useSnapshot(sessionStore);
  const loggedIn = Boolean(token && user);
  useEffect(() => {
    if (!loggedIn) return resetBlocks();
    void loadBlocks().catch(() => undefined);
    // Outcomes decided while the reporter was away are told on their next visit.
    void untoldOutcomes()
      .then((list) => list.forEach((o) => notify.info(t(OUTCOME_LABELS[o.action]), t('REPORTS.OUTCOME_TITLE'))))
      .catch(() => undefined);
    // So are warnings given while they were away.
    void untoldWarnings()
      .then((list) => list.forEach(warned))
      .catch(() => undefined);
    return subscribeSocket(realtimeConnection().connect(), {
      'report:resolved': (payload) => {
        markTold(payload.code);
        notify.info(t(OUTCOME_LABELS[payload.action]), t('REPORTS.OUTCOME_TITLE'));
      },
      'moderation:warning': (payload) => {
        markWarningTold(payload.code);
        warned();
      },
    });
  }, [loggedIn]);
  return loggedIn ? <ReportDialog /> : null;
}
