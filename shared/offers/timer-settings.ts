import { DEFAULT_OFFER_TIMER_SETTINGS, OFFER_TIMER_LIMITS, OfferTimerSettings } from '../contracts/offers';

const isDays = (v: unknown, min: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= OFFER_TIMER_LIMITS.maxDays;

/**
 * An instance's timer settings: what its admin saved, the defaults for the rest. A stored value that no longer
 * fits the rules (the column is plain JSON) counts as unset rather than breaking every offer of the instance.
 */
export function resolveTimerSettings(stored: unknown): OfferTimerSettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Partial<Record<keyof OfferTimerSettings, unknown>>;
  const days = (key: 'offerExpiryDays' | 'finalizeAutoAcceptDays' | 'reminderDaysBefore') => (isDays(s[key], 0) ? s[key] : DEFAULT_OFFER_TIMER_SETTINGS[key]);
  const reminders = s.paymentReminderDays;
  return {
    offerExpiryDays: days('offerExpiryDays'),
    finalizeAutoAcceptDays: days('finalizeAutoAcceptDays'),
    reminderDaysBefore: days('reminderDaysBefore'),
    paymentReminderDays:
      Array.isArray(reminders) && reminders.every((d) => isDays(d, 1)) ? (reminders as number[]) : [...DEFAULT_OFFER_TIMER_SETTINGS.paymentReminderDays],
  };
}

/** Rules that span fields (each field's own type and range are the DTO's): payment reminders strictly ascending. */
export function timerSettingsProblems(settings: OfferTimerSettings): string[] {
  const days = settings.paymentReminderDays;
  return days.some((d, i) => i > 0 && d <= days[i - 1]) ? ['VALIDATION.PAYMENT_REMINDER_DAYS.ASCENDING'] : [];
}
