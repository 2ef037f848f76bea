import { DEFAULT_OFFER_TIMER_SETTINGS, lapsesAt, OfferStatus, offerTimerSteps } from '../contracts/offers';
import { resolveTimerSettings, timerSettingsProblems } from './timer-settings';

describe('offer timer settings', () => {
  it('fills what the admin did not set with the defaults, and ignores stored values that break the rules', () => {
    expect(resolveTimerSettings({})).toEqual(DEFAULT_OFFER_TIMER_SETTINGS);
    expect(resolveTimerSettings({ offerExpiryDays: 30, paymentReminderDays: [1] })).toEqual({
      ...DEFAULT_OFFER_TIMER_SETTINGS,
      offerExpiryDays: 30,
      paymentReminderDays: [1],
    });
    expect(resolveTimerSettings({ offerExpiryDays: -1, finalizeAutoAcceptDays: '3', paymentReminderDays: [0] })).toEqual(DEFAULT_OFFER_TIMER_SETTINGS);
  });

  it('wants payment reminders in ascending order', () => {
    expect(timerSettingsProblems({ ...DEFAULT_OFFER_TIMER_SETTINGS, paymentReminderDays: [7, 3] })).toEqual(['VALIDATION.PAYMENT_REMINDER_DAYS.ASCENDING']);
    expect(timerSettingsProblems({ ...DEFAULT_OFFER_TIMER_SETTINGS, paymentReminderDays: [3, 3] })).toEqual(['VALIDATION.PAYMENT_REMINDER_DAYS.ASCENDING']);
    expect(timerSettingsProblems(DEFAULT_OFFER_TIMER_SETTINGS)).toEqual([]);
  });
});

describe('offer timer steps (from the transition table)', () => {
  const d = DEFAULT_OFFER_TIMER_SETTINGS;
  it('reminds before a lapse, then lapses', () => {
    expect(offerTimerSteps(OfferStatus.Proposal, d)).toEqual([
      { key: 'remind-12', days: 12, kind: 'remind' },
      { key: 'expire', days: 14, kind: 'lapse', call: 'expire' },
    ]);
    expect(offerTimerSteps(OfferStatus.FinalizeRequested, d).map((s) => s.key)).toEqual(['remind-12', 'autoApproveFinalize']);
    expect(offerTimerSteps(OfferStatus.PaymentPending, d).map((s) => s.key)).toEqual(['remind-3', 'remind-7']);
    expect(offerTimerSteps(OfferStatus.Agreed, d)).toEqual([]);
    expect(offerTimerSteps(OfferStatus.Closed, d)).toEqual([]);
  });

  it('turns a lapse off with 0 days, and drops a reminder that would come before the status was entered', () => {
    expect(offerTimerSteps(OfferStatus.FinalOffer, { ...d, offerExpiryDays: 0 })).toEqual([]);
    expect(offerTimerSteps(OfferStatus.FinalOffer, { ...d, offerExpiryDays: 2 }).map((s) => s.key)).toEqual(['expire']);
    expect(offerTimerSteps(OfferStatus.FinalOffer, { ...d, reminderDaysBefore: 0 }).map((s) => s.key)).toEqual(['expire']);
  });

  it('says when the waiting status lapses', () => {
    const since = new Date('2026-01-01T00:00:00Z');
    expect(lapsesAt(OfferStatus.Proposal, since, d)?.toISOString()).toBe('2026-01-15T00:00:00.000Z');
    expect(lapsesAt(OfferStatus.PaymentPending, since, d)).toBeNull();
  });
});
