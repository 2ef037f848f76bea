import { ApiError } from '@/api/api-error';
import { t } from '@/i18n/i18n';
import { translateMessage, translateRule } from '@/i18n/messages';

/** The text a failed login or registration shows inside its form. */
export function authErrorText(err: unknown): string {
  if (!(err instanceof ApiError)) return t('SHARED.ERROR.GENERIC');
  if (err.status === 0) return t('SHARED.ERROR.NETWORK');
  const rules = err.body?.data?.brokenRules ?? [];
  if (rules.length) return rules.map(translateRule).join(' ');
  return translateMessage(err.key);
}
