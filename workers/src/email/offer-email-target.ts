import { OFFER_TRANSITIONS, OfferActor, OfferStatus } from '#shared/contracts/offers';
import type { NotifyOfferPayload } from '#shared/contracts/queues';

export type OfferEmailKind = 'offers' | 'payments';

/** The statuses in which the next move is a payment's (made or confirmed): e-mailed as `payments`. */
const PAYMENT_STATUSES: readonly OfferStatus[] = [OfferStatus.PaymentPending, OfferStatus.PaymentDeclared];

/** Withdrawing and rejecting are open to a party almost throughout; they are no move the offer waits for. */
const WAITS_NOT_FOR: readonly string[] = ['withdraw', 'reject'];

/**
 * Who an offer in this status waits for, straight from the transition table: the one party whose move takes
 * it on (Final offer: the customer chooses; Customer approved: the provider re-approves; …), or nobody.
 */
export function waitsFor(status: OfferStatus): Exclude<OfferActor, 'system'> | null {
  const actors = new Set(OFFER_TRANSITIONS.filter((t) => t.from === status && !WAITS_NOT_FOR.includes(t.call) && t.actor !== 'system').map((t) => t.actor));
  return actors.size === 1 ? ([...actors][0] as Exclude<OfferActor, 'system'>) : null;
}

/**
 * The one person a move's e-mail is for, and its kind, or null: the party the offer now waits for, never for
 * their own move, except a payment due, which reminds the payer even when they asked for it themselves (by
 * approving the finalisation): it is money they owe, and no push told them.
 */
export function offerEmailTarget(
  move: Pick<NotifyOfferPayload, 'to' | 'actorId' | 'customerId' | 'providerId'>,
): { userId: string; kind: OfferEmailKind } | null {
  const party = waitsFor(move.to);
  if (!party) return null;
  const userId = party === 'customer' ? move.customerId : move.providerId;
  const kind: OfferEmailKind = PAYMENT_STATUSES.includes(move.to) ? 'payments' : 'offers';
  if (!userId || (kind === 'offers' && userId === move.actorId)) return null;
  return { userId, kind };
}
