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

const isForward = (m: OfferMove): boolean => !ENDING_CALLS.includes(m.call);

/**
 * The move the offer waits for: the table's first forward row from this status that takes it elsewhere (a
 * revision, Proposal → Proposal, does not; nor do withdraw, reject or a dispute). Null once Closed.
 */
export function awaitedMove(status: number): OfferMove | null {
  return OFFER_MOVES.find((m) => m.from === status && isForward(m) && m.to !== m.from) ?? null;
}

/** What the offer screen tells one user: what they may do now, what the offer waits for, and what comes after it. */
export interface OfferGuide {
  /** the buttons: this side's calls now (none for a moderator) */
  calls: OfferCall[];
  /** the move the offer waits for, null once it is closed */
  awaited: OfferMove | null;
  /** the awaited move is this user's */
  yours: boolean;
  /** this side's forward calls once the other side made the awaited move (what they wait for it to do) */
  then: OfferCall[];
}

/** The guide, read off the transition table for this status and side. */
export function offerGuide(status: number, side: OfferSide | null): OfferGuide {
  const awaited = awaitedMove(status);
  const yours = side !== null && awaited?.actor === side;
  const then = side && awaited && !yours ? OFFER_MOVES.filter((m) => m.from === awaited.to && m.actor === side && isForward(m)).map((m) => m.call) : [];
  return { calls: allowedCalls(status, side), awaited, yours, then };
}

/** Which of my open offers wait for me and which for the other side (moderators' offers count for neither). */
export function countWaiting(
  offers: readonly { status: number; providerCode: string; customerCode: string }[],
  me: string | null,
): { forMe: number; forOther: number } {
  let forMe = 0;
  let forOther = 0;
  for (const o of offers) {
    const side = sideOf(o, me);
    const awaited = awaitedMove(o.status);
    if (!side || !awaited) continue;
    if (awaited.actor === side) forMe++;
    else forOther++;
  }
  return { forMe, forOther };
}
