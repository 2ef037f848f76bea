import { t } from '@/i18n/i18n';

/** A field's state as Mantine's form reports it. */
export interface FieldState {
  error: unknown;
  dirty: boolean;
  touched: boolean;
}

/** Spec section 5: a field error shows only when the field is invalid and dirty or touched. */
export function visibleError(state: FieldState): string | undefined {
  if (!state.error || !(state.dirty || state.touched)) return undefined;
  return typeof state.error === 'string' ? state.error : String(state.error);
}

type Validator = (value: unknown) => string | null;

const isEmpty = (value: unknown) =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

// Deliberately simple: one @, something before it, a dot after it. The server has the last word.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Validators answering with the spec's field messages in the current language. */
export const rules = {
  required: (): Validator => (value) => (isEmpty(value) ? t('FORM.REQUIRED') : null),
  minLength:
    (min: number): Validator =>
    (value) =>
      typeof value === 'string' && value.length > 0 && value.length < min ? t('FORM.MIN_LENGTH', { count: min }) : null,
  email: (): Validator => (value) => (typeof value === 'string' && value.length > 0 && !EMAIL.test(value) ? t('FORM.EMAIL') : null),
};

/** Runs validators in order and answers with the first message. */
export const combine =
  (...validators: Validator[]) =>
  (value: unknown): string | null => {
    for (const validate of validators) {
      const message = validate(value);
      if (message) return message;
    }
    return null;
  };
