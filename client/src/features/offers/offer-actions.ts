import { OfferStatus } from './offer-status';

/** The two parties of an offer: its provider and the job's customer. */
export type OfferSide = 'provider' | 'customer';

/** The calls a party can make (shared/contracts/offers.ts PARTY_CALLS); 'update' sets or revises price and deadline. */
export type OfferCall = 'update' | 'final' | 'choose' | 'reapprove' | 'finalizeRequest' | 'approveFinalizeRequest' | 'pay' | 'withdraw' | 'reject';

export interface OfferMove {
  from: number;
  call: OfferCall;
  actor: OfferSide;
  to: number;
}

const S = OfferStatus;
const BEFORE_AGREED = [S.Initial, S.Proposal, S.FinalOffer, S.CustomerApproved];

/**
 * The party rows of the server's transition table (OFFER_TRANSITIONS, printed in the README's "Marketplace"
 * section): the client only offers moves the server allows. A test compares the two tables.
 */
export const OFFER_MOVES: readonly OfferMove[] = [
  { from: S.Initial, call: 'update', actor: 'provider', to: S.Proposal },
  { from: S.Proposal, call: 'update', actor: 'provider', to: S.Proposal },
  { from: S.Proposal, call: 'final', actor: 'provider', to: S.FinalOffer },
  { from: S.FinalOffer, call: 'choose', actor: 'customer', to: S.CustomerApproved },
  { from: S.CustomerApproved, call: 'reapprove', actor: 'provider', to: S.Agreed },
  { from: S.Agreed, call: 'finalizeRequest', actor: 'provider', to: S.FinalizeRequested },
  { from: S.FinalizeRequested, call: 'approveFinalizeRequest', actor: 'customer', to: S.PaymentPending },
  { from: S.PaymentPending, call: 'pay', actor: 'customer', to: S.Closed },
  ...BEFORE_AGREED.map((from) => ({ from, call: 'withdraw' as const, actor: 'provider' as const, to: S.Closed })),
  ...BEFORE_AGREED.map((from) => ({ from, call: 'reject' as const, actor: 'customer' as const, to: S.Closed })),
];

/** Moves that end the offer rather than take it forward. */
const ENDING_CALLS: readonly OfferCall[] = ['withdraw', 'reject'];

/** Which side this user is on, or null for anyone else (a moderator looking on). */
export function sideOf(offer: { providerCode: string; customerCode: string }, userCode: string | null | undefined): OfferSide | null {
  if (!userCode) return null;
  if (offer.providerCode === userCode) return 'provider';
  if (offer.customerCode === userCode) return 'customer';
  return null;
}

/** The calls this side may make in this status, in the table's order (forward moves first, then the ending ones). */
export function allowedCalls(status: number, side: OfferSide | null): OfferCall[] {
  if (!side) return [];
  const calls = OFFER_MOVES.filter((m) => m.from === status && m.actor === side).map((m) => m.call);
  return [...calls.filter((c) => !ENDING_CALLS.includes(c)), ...calls.filter((c) => ENDING_CALLS.includes(c))];
}

/** True when the offer waits for this user's move: a forward move is theirs (withdraw or reject alone do not count). */
export function waitsFor(offer: { status: number; providerCode: string; customerCode: string }, userCode: string | null | undefined): boolean {
  return allowedCalls(offer.status, sideOf(offer, userCode)).some((c) => !ENDING_CALLS.includes(c));
}

/** The side whose move it is now (null once Closed). */
export function nextMoveBy(status: number): OfferSide | null {
  return OFFER_MOVES.find((m) => m.from === status && !ENDING_CALLS.includes(m.call))?.actor ?? null;
}
