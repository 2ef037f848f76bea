import { lapsesAt } from '#shared/contracts/offers';
import { resolveTimerSettings } from '#shared/offers/timer-settings';
import { OfferDto, OfferEventDto, PartyPaymentDto, PaymentDto } from './dto/offer.dto';
import { PartyPaymentRow } from './payments/payments.repository';
import { formatAmount } from './money';
import type { OfferTerms } from '#shared/contracts/socket-events';
import { OfferEventRow, OfferRow } from './offers.repository';
import { PaymentEntity } from './payments/payment.entity';

const money = (amount: string | null, currency: string | null) =>
  amount !== null && currency !== null ? { amount: formatAmount(amount, currency), currency } : null;

export function mapOffer(row: OfferRow): OfferDto {
  return {
    code: row.code,
    status: row.status,
    deadline: row.deadline ? row.deadline.toISOString() : null,
    price: money(row.price_amount, row.price_currency),
    localPrice: money(row.local_price_amount, row.local_price_currency),
    jobCode: row.job_code,
    groupCode: row.group_code,
    providerCode: row.provider_code,
    customerCode: row.customer_code,
    createdAt: row.created_at.toISOString(),
    version: row.version,
    lapsesAt: lapsesAt(row.status, row.status_since, resolveTimerSettings(row.offer_timers))?.toISOString() ?? null,
    job: {
      code: row.job_code,
      title: row.v_title ?? '',
      description: row.v_description ?? '',
      lang: row.v_lang ?? '',
      deadline: row.job_deadline ? row.job_deadline.toISOString() : null,
    },
  };
}

/** What a party's screen needs to show a move without reloading the offer. */
export function offerTerms(row: OfferRow): OfferTerms {
  const dto = mapOffer(row);
  return { price: dto.price, localPrice: dto.localPrice, deadline: dto.deadline, version: dto.version, lapsesAt: dto.lapsesAt };
}

export function mapOfferEvent(row: OfferEventRow): OfferEventDto {
  return {
    from: row.from_status,
    to: row.to_status,
    call: row.call,
    at: row.at.toISOString(),
    actor: row.actor_code ? { code: row.actor_code, name: row.actor_name ?? '', surname: row.actor_surname ?? '' } : null,
  };
}

export function mapPayment(p: Pick<PaymentEntity, 'code' | 'amount' | 'currency' | 'status' | 'provider' | 'providerReference' | 'createdAt'>): PaymentDto {
  return {
    code: p.code,
    amount: { amount: formatAmount(p.amount, p.currency), currency: p.currency },
    status: p.status,
    provider: p.provider,
    reference: p.providerReference,
    createdAt: p.createdAt.toISOString(),
  };
}

export function mapPartyPayment(row: PartyPaymentRow): PartyPaymentDto {
  return {
    ...mapPayment({ ...row, providerReference: row.provider_reference, createdAt: row.created_at }),
    offerCode: row.offer_code,
    jobCode: row.job_code,
    jobTitle: row.job_title ?? '',
    direction: row.paid_by_me ? 'made' : 'received',
    otherParty: row.other_code ? { code: row.other_code, name: row.other_name ?? '', surname: row.other_surname ?? '' } : null,
  };
}
