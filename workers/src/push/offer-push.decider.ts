import { Injectable } from '@nestjs/common';
import { OfferStatus, WAITING_FOR } from '#shared/contracts/offers';
import { NotifyOfferPayload, PushKind } from '#shared/contracts/queues';
import { offerPush, pushLang, pushTopic } from '#shared/push/push-content';
import { NotificationQueries } from './notification-queries';
import { PushAudience, Recipient } from './push-audience';
import { PushDecision } from './push-fan-out';

type OfferPushKind = Exclude<PushKind, 'message'>;

/**
 * Who an offer's move concerns, before anyone is left out: the payer, the payee, or both parties. A declared
 * payment asks the payee to confirm it; only a confirmed (or settled) one tells them it was received.
 */
export function offerPushTargets(payload: NotifyOfferPayload): { userId: string; kind: OfferPushKind }[] {
  let targets: { userId: string; kind: OfferPushKind }[];
  const waiting = WAITING_FOR[payload.to as OfferStatus];
  if (payload.reminder) targets = waiting ? [{ userId: waiting === 'customer' ? payload.customerId : payload.providerId, kind: 'offer-reminder' }] : [];
  else if (payload.to === OfferStatus.PaymentPending) targets = [{ userId: payload.customerId, kind: 'payment-requested' }];
  else if (payload.to === OfferStatus.PaymentDeclared) targets = [{ userId: payload.providerId, kind: 'payment-declared' }];
  else if (payload.to === OfferStatus.Closed && payload.paymentId)
    targets = [
      { userId: payload.providerId, kind: 'payment-received' },
      { userId: payload.customerId, kind: 'offer-status' },
    ];
  else targets = [payload.customerId, payload.providerId].map((userId) => ({ userId, kind: 'offer-status' as const }));
  // Nobody is pushed for their own action.
  return targets.filter((t) => t.userId && t.userId !== payload.actorId);
}

/** The one place that decides who is pushed when an offer changes status (outbox topic offer.status-changed). */
@Injectable()
export class OfferPushDecider {
  constructor(
    private readonly queries: NotificationQueries,
    private readonly audience: PushAudience,
  ) {}

  /** One decision per kind of push (one kind per move today). */
  async decide(payload: NotifyOfferPayload): Promise<PushDecision[]> {
    const targets = offerPushTargets(payload);
    const users = new Map((await this.queries.users(targets.map((t) => t.userId))).map((u) => [u.id, u]));
    const kindOf = new Map(targets.map((t) => [t.userId, t.kind]));
    const recipients = targets
      .filter((t) => users.has(t.userId))
      .map((t): Recipient => ({ userId: t.userId, userCode: users.get(t.userId)!.code, lang: users.get(t.userId)!.lang }));
    const topic = pushTopic(payload.offerCode);
    const decisions: PushDecision[] = [];
    for (const kind of new Set(recipients.map((r) => kindOf.get(r.userId)!))) {
      decisions.push({
        kind,
        ref: payload.offerCode,
        audience: await this.audience.of(
          recipients.filter((r) => kindOf.get(r.userId) === kind),
          kind === 'offer-status' || (kind === 'offer-reminder' && payload.to !== OfferStatus.PaymentPending) ? 'offers' : 'payments',
        ),
        build: (r) => ({
          content: offerPush({ lang: pushLang(r.lang), kind, offerCode: payload.offerCode, jobCode: payload.jobCode, status: payload.to }),
          topic,
          urgency: kind === 'offer-status' ? 'normal' : 'high',
        }),
      });
    }
    return decisions;
  }
}
