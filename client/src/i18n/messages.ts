import { i18n, t, tk } from './i18n';

/**
 * The offer notes the marketplace posts in an offer's chat (shared/contracts/offers.ts OFFER_NOTE_TEXTS):
 * the server marks them (offerNote) and their text is one of these keys, kept translated here; a test keeps this
 * list in step with the server's.
 */
export const OFFER_NOTE_KEYS = [
  tk('JOB_OFFER.MESSAGE.PROPOSAL'),
  tk('JOB_OFFER.MESSAGE.REVISED'),
  tk('JOB_OFFER.MESSAGE.FINAL_OFFER'),
  tk('JOB_OFFER.MESSAGE.APPROVED'),
  tk('JOB_OFFER.MESSAGE.AGREED'),
  tk('JOB_OFFER.MESSAGE.FINALIZE_REQUESTED'),
  tk('JOB_OFFER.MESSAGE.PAYMENT_REQUESTED'),
  tk('JOB_OFFER.MESSAGE.PAID'),
  tk('JOB_OFFER.MESSAGE.WITHDRAWN'),
  tk('JOB_OFFER.MESSAGE.REJECTED'),
  tk('JOB_OFFER.MESSAGE.CLOSED_OTHER_CHOSEN'),
] as const;

/** The marketplace's answers (server/src/modules/marketplace): errors, job roles and its own validation rules. */
const MARKETPLACE_KEYS = [
  tk('JOB_OFFER.NOT_FOUND'),
  tk('JOB_OFFER.ALREADY_EXISTS'),
  tk('JOB_OFFER.OWN_JOB'),
  tk('JOB_OFFER.OTHER_INSTANCE'),
  tk('JOB_OFFER.NOT_YOUR_MOVE'),
  tk('JOB_OFFER.ILLEGAL_TRANSITION'),
  tk('JOB_OFFER.CHANGED_MEANWHILE'),
  tk('JOB_OFFER.CANNOT_PAY'),
  tk('JOB_OFFER.PAYMENT_FAILED'),
  tk('JOB.NOT_FOUND'),
  tk('JOB.NOT_YOURS'),
  tk('JOB.NOT_ACCEPTING_OFFERS'),
  tk('JOB.UNKNOWN_USERS'),
  tk('JOB.ROLE.MANAGER'),
  tk('JOB.ROLE.REVIEWER'),
  tk('JOB.ROLE.CONTRIBUTOR'),
  tk('JOB.ROLE.OBSERVER'),
  tk('VALIDATION.PRICE.IS_OBJECT'),
  tk('VALIDATION.PRICE.AMOUNT.IS_STRING'),
  tk('VALIDATION.PRICE.AMOUNT.IS_DECIMAL'),
  tk('VALIDATION.PRICE.AMOUNT.IS_POSITIVE'),
  tk('VALIDATION.PRICE.AMOUNT.MAX_DECIMALS'),
  tk('VALIDATION.PRICE.AMOUNT.MAX'),
  tk('VALIDATION.PRICE.AMOUNT.MAX_LENGTH'),
  tk('VALIDATION.PRICE.CURRENCY.IS_STRING'),
  tk('VALIDATION.PRICE.CURRENCY.IS_IN'),
  tk('VALIDATION.LOCAL_PRICE.AMOUNT.IS_DECIMAL'),
  tk('VALIDATION.LOCAL_PRICE.AMOUNT.IS_POSITIVE'),
  tk('VALIDATION.LOCAL_PRICE.AMOUNT.MAX_DECIMALS'),
  tk('VALIDATION.LOCAL_PRICE.AMOUNT.MAX'),
  tk('VALIDATION.LOCAL_PRICE.CURRENCY.IS_IN'),
  tk('VALIDATION.DEADLINE.IS_STRING'),
  tk('VALIDATION.DEADLINE.IS_ISO8601'),
  tk('VALIDATION.DEADLINE.MIN_DATE'),
  tk('VALIDATION.VERSIONS.ARRAY_MIN_SIZE'),
  tk('VALIDATION.VERSIONS.LANG.REQUIRED'),
  tk('VALIDATION.VERSIONS.LANG.IS_STRING'),
  tk('VALIDATION.VERSIONS.LANG.IS_IN'),
  tk('VALIDATION.VERSIONS.TITLE.REQUIRED'),
  tk('VALIDATION.VERSIONS.TITLE.IS_STRING'),
  tk('VALIDATION.VERSIONS.TITLE.MIN_LENGTH'),
  tk('VALIDATION.VERSIONS.TITLE.MAX_LENGTH'),
  tk('VALIDATION.VERSIONS.DESCRIPTION.REQUIRED'),
  tk('VALIDATION.VERSIONS.DESCRIPTION.IS_STRING'),
  tk('VALIDATION.VERSIONS.DESCRIPTION.MIN_LENGTH'),
  tk('VALIDATION.VERSIONS.DESCRIPTION.MAX_LENGTH'),
  tk('VALIDATION.VERSIONS.UNIQUE_TRANSLATION'),
  tk('VALIDATION.VERSIONS.ONE_DEFAULT'),
  tk('VALIDATION.IDEMPOTENCY_KEY.INVALID'),
  tk('VALIDATION.IDEMPOTENCY_KEY.REUSED'),
] as const;

/** Keys the server answers with (server/src/common/errors.ts), so the key check keeps them translated. */
export const SERVER_MESSAGE_KEYS = [
  ...OFFER_NOTE_KEYS,
  ...MARKETPLACE_KEYS,
  tk('SHARED.ERROR.BAD_REQUEST'),
  tk('SHARED.ERROR.MALFORMED_JSON'),
  tk('SHARED.ERROR.UNAUTHORIZED'),
  tk('SHARED.USER.SESSION_EXPIRED'),
  tk('SHARED.USER.INVALID_CREDENTIALS'),
  tk('SHARED.ERROR.FORBIDDEN'),
  tk('SHARED.ERROR.CROSS_ORIGIN'),
  tk('SHARED.ERROR.NOT_FOUND'),
  tk('SHARED.ERROR.CONFLICT'),
  tk('SHARED.USER.EMAIL_TAKEN'),
  tk('SHARED.ERROR.PAYLOAD_TOO_LARGE'),
  tk('SHARED.ERROR.UNSUPPORTED_MEDIA_TYPE'),
  tk('SHARED.ERROR.VALIDATION'),
  tk('SHARED.ERROR.TOO_MANY_REQUESTS'),
  tk('SHARED.ERROR.INTERNAL'),
  tk('SHARED.ERROR.UNAVAILABLE'),
  tk('SHARED.ERROR.OVERLOADED'),
  tk('VALIDATION.CUSTOM_CSS.TOO_LONG'),
  tk('VALIDATION.CUSTOM_CSS.STYLE_TAG'),
  tk('VALIDATION.CUSTOM_CSS.IMPORT'),
  tk('VALIDATION.CUSTOM_CSS.SCRIPT'),
  tk('VALIDATION.CUSTOM_CSS.UNSAFE_URL'),
  tk('VALIDATION.CUSTOM_CSS.CONTENT'),
  tk('VALIDATION.CUSTOM_CSS.TEXT'),
  tk('VALIDATION.LOGO_URL.MATCHES'),
  tk('VALIDATION.USER_CODE.NOT_IN_INSTANCE'),
  tk('VALIDATION.PASSWORD.COMMON'),
  tk('VALIDATION.PASSWORD.PERSONAL'),
  tk('VALIDATION.PASSWORD.TOO_WEAK'),
  tk('CHAT.MESSAGE.DELETED'),
  tk('CHAT.MESSAGE.NOT_EDITABLE'),
  tk('VALIDATION.REPLY_TO.NOT_FOUND'),
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
