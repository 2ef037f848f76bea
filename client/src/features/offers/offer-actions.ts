import { type OfferCall as AnyOfferCall, OFFER_TRANSITIONS, type SystemCall } from '@contracts/offers';

/** The two parties of an offer: its provider and the job's customer. */
export type OfferSide = 'provider' | 'customer';

/** The calls a party can make (PARTY_CALLS); 'update' sets or revises price and deadline. */
export type OfferCall = Exclude<AnyOfferCall, SystemCall>;

export interface OfferMove {
  from: number;
  call: OfferCall;
  actor: OfferSide;
  to: number;
}

const isPartyMove = (t: (typeof OFFER_TRANSITIONS)[number]): t is (typeof OFFER_TRANSITIONS)[number] & OfferMove => t.actor !== 'system';

/**
 * The party rows of the server's transition table (closeOthers and settle are only side effects): the client
 * offers exactly the moves the server allows, from the same table.
 */
export const OFFER_MOVES: readonly OfferMove[] = OFFER_TRANSITIONS.filter(isPartyMove);

/** Moves that end the offer or send it back rather than take it forward. */
const ENDING_CALLS: readonly OfferCall[] = ['withdraw', 'reject', 'disputePayment'];

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
