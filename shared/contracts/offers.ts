import { ChatMessageType } from './chat';

/** Job offer statuses (spec section 4), numeric. */
export enum OfferStatus {
  Initial = 1,
  Proposal = 5,
  FinalOffer = 10,
  CustomerApproved = 50,
  Agreed = 100,
  FinalizeRequested = 130,
  PaymentPending = 160,
  /** the customer says they paid (a manual payment); waits for the provider to confirm it arrived (not in the spec's list) */
  PaymentDeclared = 180,
  Closed = 200,
}

export const OFFER_STATUSES: readonly OfferStatus[] = [1, 5, 10, 50, 100, 130, 160, 180, 200];

/** Every move an offer can make, named after the call that makes it. */
export type OfferCall =
  | 'update'
  | 'final'
  | 'choose'
  | 'reapprove'
  | 'finalizeRequest'
  | 'approveFinalizeRequest'
  | 'pay'
  | 'confirmPayment'
  | 'disputePayment'
  | 'withdraw'
  | 'reject'
  /** the customer chose another offer with allowForMoreOffers false */
  | 'closeOthers'
  /** the payment provider took the money at once (not a manual payment): no confirmation to wait for */
  | 'settle'
  /** a timer: nobody moved the offer for the instance's offerExpiryDays */
  | 'expire'
  /** a timer: the customer left a finalisation request unanswered for the instance's finalizeAutoAcceptDays */
  | 'autoApproveFinalize';

/** Moves the system makes: as a side effect of a party's call, or when a timer lapses. */
export type SystemCall = 'closeOthers' | 'settle' | TimerCall;

/** The moves a lapsing timer makes (see OFFER_TIMERS). */
export type TimerCall = 'expire' | 'autoApproveFinalize';

/** Who makes a move: the offer's provider, the job's customer, or the system (as a side effect of another move). */
export type OfferActor = 'provider' | 'customer' | 'system';

export interface OfferTransition {
  from: OfferStatus;
  call: OfferCall;
  actor: OfferActor;
  to: OfferStatus;
  /** a timer's move: made once the offer has waited in `from` for this many days of the instance's settings */
  after?: OfferLapseSetting;
}

/**
 * How long offers may wait, per instance (the instance admin edits them; DEFAULT_OFFER_TIMER_SETTINGS otherwise).
 * Whole days; 0 turns a lapse off.
 */
export interface OfferTimerSettings {
  /** a Proposal, Final offer or chosen offer with no move for this long expires (Closed, call `expire`) */
  offerExpiryDays: number;
  /** a finalisation request the customer leaves unanswered this long is accepted for them (PaymentPending) */
  finalizeAutoAcceptDays: number;
  /** the party whose move it is is reminded this many days before a lapse (0: no reminder) */
  reminderDaysBefore: number;
  /** the customer is reminded to pay this many days after the payment was asked for (ascending) */
  paymentReminderDays: number[];
}

/** The settings that time a lapse. */
export type OfferLapseSetting = 'offerExpiryDays' | 'finalizeAutoAcceptDays';

export const DEFAULT_OFFER_TIMER_SETTINGS: Readonly<OfferTimerSettings> = {
  offerExpiryDays: 14,
  finalizeAutoAcceptDays: 14,
  reminderDaysBefore: 2,
  paymentReminderDays: [3, 7],
};

export const DAY_MS = 86_400_000;

/** Bounds of the settings (checked when an admin saves them). */
export const OFFER_TIMER_LIMITS = { maxDays: 365, maxPaymentReminders: 5 } as const;

const S = OfferStatus;
const BEFORE_AGREED = [S.Initial, S.Proposal, S.FinalOffer, S.CustomerApproved] as const;

/**
 * THE transition table: an offer may only move along these rows; anything else is a 409. docs/marketplace.md
 * prints the same table.
 */
export const OFFER_TRANSITIONS: readonly OfferTransition[] = [
  { from: S.Initial, call: 'update', actor: 'provider', to: S.Proposal },
  { from: S.Proposal, call: 'update', actor: 'provider', to: S.Proposal },
  { from: S.Proposal, call: 'final', actor: 'provider', to: S.FinalOffer },
  { from: S.FinalOffer, call: 'choose', actor: 'customer', to: S.CustomerApproved },
  { from: S.CustomerApproved, call: 'reapprove', actor: 'provider', to: S.Agreed },
  { from: S.Agreed, call: 'finalizeRequest', actor: 'provider', to: S.FinalizeRequested },
  { from: S.FinalizeRequested, call: 'approveFinalizeRequest', actor: 'customer', to: S.PaymentPending },
  // Paying declares the payment; the offer closes only once the money is known to have arrived: the provider
  // confirms a manual payment (or says it has not arrived, and the offer waits for payment again), or a provider
  // that takes the money at once settles it in the same call.
  { from: S.PaymentPending, call: 'pay', actor: 'customer', to: S.PaymentDeclared },
  { from: S.PaymentDeclared, call: 'confirmPayment', actor: 'provider', to: S.Closed },
  { from: S.PaymentDeclared, call: 'disputePayment', actor: 'provider', to: S.PaymentPending },
  { from: S.PaymentDeclared, call: 'settle', actor: 'system', to: S.Closed },
  ...BEFORE_AGREED.map((from) => ({ from, call: 'withdraw' as const, actor: 'provider' as const, to: S.Closed })),
  ...BEFORE_AGREED.map((from) => ({ from, call: 'reject' as const, actor: 'customer' as const, to: S.Closed })),
  // Only offers that nobody chose yet are closed when the customer chooses another one and stops taking offers.
  ...[S.Initial, S.Proposal, S.FinalOffer].map((from) => ({ from, call: 'closeOthers' as const, actor: 'system' as const, to: S.Closed })),
  // Timers: an offer left waiting lapses on its own (OFFER_TIMERS adds the reminders before each lapse).
  ...[S.Proposal, S.FinalOffer, S.CustomerApproved].map((from) => ({
    from,
    call: 'expire' as const,
    actor: 'system' as const,
    to: S.Closed,
    after: 'offerExpiryDays' as const,
  })),
  { from: S.FinalizeRequested, call: 'autoApproveFinalize', actor: 'system', to: S.PaymentPending, after: 'finalizeAutoAcceptDays' },
];

/** Whose move an offer waits for in a status, so the reminders go to them. */
export const WAITING_FOR: { readonly [S in OfferStatus]?: 'provider' | 'customer' } = {
  [S.Initial]: 'provider',
  [S.Proposal]: 'provider',
  [S.FinalOffer]: 'customer',
  [S.CustomerApproved]: 'provider',
  [S.Agreed]: 'provider',
  [S.FinalizeRequested]: 'customer',
  [S.PaymentPending]: 'customer',
  [S.PaymentDeclared]: 'provider',
};

/** One thing a timer does while an offer waits in a status: remind the party whose move it is, or make the lapse move. */
export interface OfferTimerStep {
  /** unique per status: `remind-<days>` or the lapse call */
  key: string;
  /** days after the offer entered the status */
  days: number;
  kind: 'remind' | 'lapse';
  /** the lapse's move */
  call?: TimerCall;
}

/**
 * THE timers, derived from the transition table (rows with `after`) plus the payment reminders: what happens, in
 * order, to an offer left in `status`. Every move of the offer (a new version) starts its status's steps afresh.
 */
export function offerTimerSteps(status: OfferStatus, settings: OfferTimerSettings): OfferTimerStep[] {
  const steps: OfferTimerStep[] = [];
  const lapse = OFFER_TRANSITIONS.find((t) => t.from === status && t.after);
  const lapseDays = lapse?.after ? settings[lapse.after] : 0;
  if (lapse && lapseDays > 0) {
    const remindAt = lapseDays - settings.reminderDaysBefore;
    if (settings.reminderDaysBefore > 0 && remindAt > 0) steps.push({ key: `remind-${remindAt}`, days: remindAt, kind: 'remind' });
    steps.push({ key: lapse.call, days: lapseDays, kind: 'lapse', call: lapse.call as TimerCall });
  }
  if (status === S.PaymentPending) {
    for (const days of settings.paymentReminderDays) steps.push({ key: `remind-${days}`, days, kind: 'remind' });
  }
  return steps;
}

/** Statuses that have timers with some settings: a lapse row in the table, or the payment reminders. */
export const TIMED_STATUSES: readonly OfferStatus[] = [...new Set([...OFFER_TRANSITIONS.filter((t) => t.after).map((t) => t.from), S.PaymentPending])];

/** When the offer's current waiting status lapses (entered at `since`), or null when it never does. */
export function lapsesAt(status: OfferStatus, since: Date, settings: OfferTimerSettings): Date | null {
  const lapse = offerTimerSteps(status, settings).find((s) => s.kind === 'lapse');
  return lapse ? new Date(since.getTime() + lapse.days * DAY_MS) : null;
}

/** The calls a party can make over HTTP (closeOthers and settle are only side effects of choose and pay). */
export const PARTY_CALLS: readonly Exclude<OfferCall, SystemCall>[] = [
  'update',
  'final',
  'choose',
  'reapprove',
  'finalizeRequest',
  'approveFinalizeRequest',
  'pay',
  'confirmPayment',
  'disputePayment',
  'withdraw',
  'reject',
];

/** The row for this move, if the table has one (actor not checked). */
export function findTransition(from: OfferStatus, call: OfferCall): OfferTransition | undefined {
  return OFFER_TRANSITIONS.find((t) => t.from === from && t.call === call);
}

/** Who may make this call at all (the same party from every status it is allowed in). */
export function actorOf(call: OfferCall): OfferActor {
  return OFFER_TRANSITIONS.find((t) => t.call === call)!.actor;
}

/** Offers that are still open: not Closed. */
export const isOpenStatus = (status: OfferStatus): boolean => status !== S.Closed;

const { Text, FinalJobOfferRequest, JobOfferApproved } = ChatMessageType;

/** The chat note of an offer move: its message type and its text, a translation key. */
export interface OfferNote {
  type: typeof Text | typeof FinalJobOfferRequest | typeof JobOfferApproved;
  text: string;
}

/**
 * The chat message each move posts in the offer's chat, authored by the party that moved (FinalJobOfferRequest,
 * JobOfferApproved, else Text whose text is a translation key).
 */
export const OFFER_MESSAGES: { readonly [C in OfferCall]: OfferNote } = {
  update: { type: Text, text: 'JOB_OFFER.MESSAGE.PROPOSAL' },
  final: { type: FinalJobOfferRequest, text: 'JOB_OFFER.MESSAGE.FINAL_OFFER' },
  choose: { type: JobOfferApproved, text: 'JOB_OFFER.MESSAGE.APPROVED' },
  reapprove: { type: Text, text: 'JOB_OFFER.MESSAGE.AGREED' },
  finalizeRequest: { type: Text, text: 'JOB_OFFER.MESSAGE.FINALIZE_REQUESTED' },
  approveFinalizeRequest: { type: Text, text: 'JOB_OFFER.MESSAGE.PAYMENT_REQUESTED' },
  pay: { type: Text, text: 'JOB_OFFER.MESSAGE.PAYMENT_DECLARED' },
  confirmPayment: { type: Text, text: 'JOB_OFFER.MESSAGE.PAYMENT_CONFIRMED' },
  disputePayment: { type: Text, text: 'JOB_OFFER.MESSAGE.PAYMENT_NOT_RECEIVED' },
  withdraw: { type: Text, text: 'JOB_OFFER.MESSAGE.WITHDRAWN' },
  reject: { type: Text, text: 'JOB_OFFER.MESSAGE.REJECTED' },
  closeOthers: { type: Text, text: 'JOB_OFFER.MESSAGE.CLOSED_OTHER_CHOSEN' },
  settle: { type: Text, text: 'JOB_OFFER.MESSAGE.PAID' },
  expire: { type: Text, text: 'JOB_OFFER.MESSAGE.EXPIRED' },
  autoApproveFinalize: { type: Text, text: 'JOB_OFFER.MESSAGE.FINALIZE_AUTO_APPROVED' },
};

/** The notes of the reminders: the payment still due, or any other wait about to lapse. */
export const OFFER_REMINDER_MESSAGES = {
  payment: { type: Text, text: 'JOB_OFFER.MESSAGE.PAYMENT_REMINDER' },
  lapse: { type: Text, text: 'JOB_OFFER.MESSAGE.LAPSE_REMINDER' },
} as const satisfies Record<string, OfferNote>;

/** The note of an 'update' that revises a proposal (Proposal → Proposal) rather than making the first one. */
export const OFFER_REVISED_MESSAGE: OfferNote = { type: Text, text: 'JOB_OFFER.MESSAGE.REVISED' };

/** The note a move posts. */
export const offerNoteOf = (call: OfferCall, from: OfferStatus): OfferNote =>
  call === 'update' && from === S.Proposal ? OFFER_REVISED_MESSAGE : OFFER_MESSAGES[call];

/**
 * Every text an offer note carries (the client keeps a translation of each). A stored message is known as a
 * note only by the mark the marketplace sets when it posts one (chat_message.offer_note, `offerNote` in
 * payloads), never by its text: anyone can type these keys.
 */
export const OFFER_NOTE_TEXTS: readonly string[] = [
  ...Object.values(OFFER_MESSAGES).map((m) => m.text),
  OFFER_REVISED_MESSAGE.text,
  ...Object.values(OFFER_REMINDER_MESSAGES).map((m) => m.text),
];

/** Outbox topic and payload written in the same transaction as every transition and payment. */
export const OFFER_STATUS_CHANGED_TOPIC = 'offer.status-changed';

export interface OfferStatusChangedOutboxPayload {
  offerId: string;
  offerCode: string;
  jobCode: string;
  groupCode: string;
  from: OfferStatus;
  to: OfferStatus;
  /** null: a timer */
  actorId: string | null;
  customerId: string;
  providerId: string;
  /** the payment the move declared, confirmed, disputed or settled */
  paymentId?: string;
  /** the move's row in the offer's log (job_offer_event), added by the statement that writes both */
  eventId?: string;
}

/** Outbox topic of a timer's reminder (no move: `from` and `to` are the status it waits in, `actorId` empty). */
export const OFFER_REMINDED_TOPIC = 'offer.reminded';

/** What a server hears when an offer's timer is due (Redis channel OFFER_TIMER_DUE_CHANNEL): it applies the step once. */
export interface OfferTimerDue {
  offerId: string;
  /** the offer's version when the timer was set: any move since makes the timer do nothing */
  version: number;
  status: OfferStatus;
  key: string;
}

/** Parts of the Redis channel (through RedisService.key) the worker publishes due timers on. */
export const OFFER_TIMER_DUE_CHANNEL = ['offer', 'timer-due'] as const;

/** Money bounds: prices are > 0, at most the currency's decimals (never more than 2), at most this amount. */
export const MAX_PRICE_AMOUNT = '100000000.00';

/** How long a used Idempotency-Key answers with its first result. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,100}$/;

/** Job roles (the spec does not name them): users may be put on each of these. */
export enum JobRole {
  Manager = 1,
  Reviewer = 2,
  Contributor = 3,
  Observer = 4,
}

export const JOB_ROLES: readonly { id: JobRole; name: string }[] = [
  { id: JobRole.Manager, name: 'JOB.ROLE.MANAGER' },
  { id: JobRole.Reviewer, name: 'JOB.ROLE.REVIEWER' },
  { id: JobRole.Contributor, name: 'JOB.ROLE.CONTRIBUTOR' },
  { id: JobRole.Observer, name: 'JOB.ROLE.OBSERVER' },
];
