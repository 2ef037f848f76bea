import { ApiError } from '@/api/api-error';
import { notify } from '@/components/notifications/notify';
import { t } from '@/i18n/i18n';
import { translateMessage } from '@/i18n/messages';

/**
 * Says why an action failed. A 422 (and a 401) was already shown by the one error handler; the handler passes
 * other answers on without a message (spec section 8), so the screen that acted names them: the server's key
 * translated (e.g. "Only the job's customer can do this"), or that the server could not be reached.
 */
export function notifyFailure(err: unknown): void {
  if (err instanceof ApiError && (err.status === 422 || err.status === 401)) return;
  if (err instanceof ApiError && err.status === 0) notify.error(t('SHARED.ERROR.NETWORK'));
  else notify.error(translateMessage(err instanceof ApiError ? err.key : null));
}
