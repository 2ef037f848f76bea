import { i18n, t, tk } from './i18n';

/** Keys the server answers with (server/src/common/errors.ts), so the key check keeps them translated. */
export const SERVER_MESSAGE_KEYS = [
  tk('SHARED.ERROR.BAD_REQUEST'),
  tk('SHARED.ERROR.MALFORMED_JSON'),
  tk('SHARED.ERROR.UNAUTHORIZED'),
  tk('SHARED.USER.SESSION_EXPIRED'),
  tk('SHARED.USER.INVALID_CREDENTIALS'),
  tk('SHARED.ERROR.FORBIDDEN'),
  tk('SHARED.ERROR.NOT_FOUND'),
  tk('SHARED.ERROR.CONFLICT'),
  tk('SHARED.USER.EMAIL_TAKEN'),
  tk('SHARED.ERROR.PAYLOAD_TOO_LARGE'),
  tk('SHARED.ERROR.UNSUPPORTED_MEDIA_TYPE'),
  tk('SHARED.ERROR.VALIDATION'),
  tk('SHARED.ERROR.TOO_MANY_REQUESTS'),
  tk('SHARED.ERROR.INTERNAL'),
  tk('SHARED.ERROR.UNAVAILABLE'),
  tk('VALIDATION.CUSTOM_CSS.TOO_LONG'),
  tk('VALIDATION.CUSTOM_CSS.STYLE_TAG'),
  tk('VALIDATION.CUSTOM_CSS.IMPORT'),
  tk('VALIDATION.CUSTOM_CSS.SCRIPT'),
  tk('VALIDATION.CUSTOM_CSS.UNSAFE_URL'),
  tk('VALIDATION.LOGO_URL.MATCHES'),
];

/** A server message key translated; unknown keys fall back to a generic sentence, never the raw key. */
export function translateMessage(key: string | null | undefined): string {
  if (key && i18n.exists(key)) return t(key);
  return t('SHARED.ERROR.GENERIC');
}

/** 'VALIDATION.PRICE.AMOUNT.MIN' → 'price amount'. */
export function fieldOfRule(rule: string): string {
  const parts = rule.split('.');
  return parts
    .slice(1, -1)
    .map((p) => p.toLowerCase().replace(/_/g, ' '))
    .join(' ');
}

/** A broken rule translated; rules without their own text name the field that is wrong. */
export function translateRule(rule: string): string {
  if (i18n.exists(rule)) return t(rule);
  const field = fieldOfRule(rule);
  return field ? t('SHARED.ERROR.INVALID_FIELD', { field }) : t('SHARED.ERROR.GENERIC');
}
