import { OFFER_TRANSITIONS } from '@contracts/offers';
import { tk } from '@/i18n/i18n';
import type { OfferCall } from './offer-actions';

/** Per call: the button's label, the confirm's question and the success note (keys; the view translates them). */
export const ACTION_TEXT: Record<OfferCall, { label: string; confirm: string; danger?: boolean }> = {
  update: { label: tk('OFFERS.ACTION.UPDATE'), confirm: tk('OFFERS.CONFIRM.UPDATE') },
  final: { label: tk('OFFERS.ACTION.FINAL'), confirm: tk('OFFERS.CONFIRM.FINAL') },
  choose: { label: tk('OFFERS.ACTION.CHOOSE'), confirm: tk('OFFERS.CONFIRM.CHOOSE') },
  reapprove: { label: tk('OFFERS.ACTION.REAPPROVE'), confirm: tk('OFFERS.CONFIRM.REAPPROVE') },
  finalizeRequest: { label: tk('OFFERS.ACTION.FINALIZE_REQUEST'), confirm: tk('OFFERS.CONFIRM.FINALIZE_REQUEST') },
  approveFinalizeRequest: { label: tk('OFFERS.ACTION.APPROVE_FINALIZE_REQUEST'), confirm: tk('OFFERS.CONFIRM.APPROVE_FINALIZE_REQUEST') },
  pay: { label: tk('OFFERS.ACTION.PAY'), confirm: tk('OFFERS.CONFIRM.PAY') },
  confirmPayment: { label: tk('OFFERS.ACTION.CONFIRM_PAYMENT'), confirm: tk('OFFERS.CONFIRM.CONFIRM_PAYMENT') },
  disputePayment: { label: tk('OFFERS.ACTION.DISPUTE_PAYMENT'), confirm: tk('OFFERS.CONFIRM.DISPUTE_PAYMENT'), danger: true },
  withdraw: { label: tk('OFFERS.ACTION.WITHDRAW'), confirm: tk('OFFERS.CONFIRM.WITHDRAW'), danger: true },
  reject: { label: tk('OFFERS.ACTION.REJECT'), confirm: tk('OFFERS.CONFIRM.REJECT'), danger: true },
};

/** A history row's wording, by the call that made it (a revision is an update from Proposal). */
export function historyText(call: string, from: number | null): string {
  if (call === 'update') return from === 5 ? tk('OFFERS.HISTORY.REVISED') : tk('OFFERS.HISTORY.PRICED');
  return HISTORY[call] ?? tk('OFFERS.HISTORY.OTHER');
}

const HISTORY: Record<string, string> = {
  create: tk('OFFERS.HISTORY.CREATE'),
  final: tk('OFFERS.HISTORY.FINAL'),
  choose: tk('OFFERS.HISTORY.CHOOSE'),
  reapprove: tk('OFFERS.HISTORY.REAPPROVE'),
  finalizeRequest: tk('OFFERS.HISTORY.FINALIZE_REQUEST'),
  approveFinalizeRequest: tk('OFFERS.HISTORY.APPROVE_FINALIZE_REQUEST'),
  pay: tk('OFFERS.HISTORY.PAY'),
  confirmPayment: tk('OFFERS.HISTORY.CONFIRM_PAYMENT'),
  disputePayment: tk('OFFERS.HISTORY.DISPUTE_PAYMENT'),
  settle: tk('OFFERS.HISTORY.SETTLE'),
  withdraw: tk('OFFERS.HISTORY.WITHDRAW'),
  reject: tk('OFFERS.HISTORY.REJECT'),
  closeOthers: tk('OFFERS.HISTORY.CLOSE_OTHERS'),
  expire: tk('OFFERS.HISTORY.EXPIRE'),
  autoApproveFinalize: tk('OFFERS.HISTORY.AUTO_APPROVE_FINALIZE'),
};

/** The calls an offer can wait for (forward moves; withdraw, reject and a dispute are never awaited). */
type AwaitedCall = Exclude<OfferCall, 'withdraw' | 'reject' | 'disputePayment'>;

/** Per awaited call: the line for whoever waits for it ("Waiting for the provider's final offer") and for the one whose move it is. */
export const AWAITED_TEXT: Record<AwaitedCall, { waiting: string; yours: string }> = {
  update: { waiting: tk('OFFERS.GUIDE.WAITING.UPDATE'), yours: tk('OFFERS.GUIDE.YOURS.UPDATE') },
  final: { waiting: tk('OFFERS.GUIDE.WAITING.FINAL'), yours: tk('OFFERS.GUIDE.YOURS.FINAL') },
  choose: { waiting: tk('OFFERS.GUIDE.WAITING.CHOOSE'), yours: tk('OFFERS.GUIDE.YOURS.CHOOSE') },
  reapprove: { waiting: tk('OFFERS.GUIDE.WAITING.REAPPROVE'), yours: tk('OFFERS.GUIDE.YOURS.REAPPROVE') },
  finalizeRequest: { waiting: tk('OFFERS.GUIDE.WAITING.FINALIZE_REQUEST'), yours: tk('OFFERS.GUIDE.YOURS.FINALIZE_REQUEST') },
  approveFinalizeRequest: { waiting: tk('OFFERS.GUIDE.WAITING.APPROVE_FINALIZE_REQUEST'), yours: tk('OFFERS.GUIDE.YOURS.APPROVE_FINALIZE_REQUEST') },
  pay: { waiting: tk('OFFERS.GUIDE.WAITING.PAY'), yours: tk('OFFERS.GUIDE.YOURS.PAY') },
  confirmPayment: { waiting: tk('OFFERS.GUIDE.WAITING.CONFIRM_PAYMENT'), yours: tk('OFFERS.GUIDE.YOURS.CONFIRM_PAYMENT') },
};

/** Moves a timer made (the table's rows with `after`): nobody's, so the history says "automatically". */
export const isTimerCall = (call: string): boolean => OFFER_TRANSITIONS.some((t) => t.call === call && t.after !== undefined);

/** The guide's line for an awaited call: "waiting" for the others, "yours" for the one who makes it. */
export function awaitedText(call: OfferCall, yours: boolean): string {
  const text = AWAITED_TEXT[call as AwaitedCall] ?? AWAITED_TEXT.update;
  return yours ? text.yours : text.waiting;
}
