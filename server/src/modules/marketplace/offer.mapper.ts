import { OfferDto, PaymentDto } from './dto/offer.dto';
import { formatAmount } from './money';
import { OfferRow } from './offers.repository';
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
    job: {
      code: row.job_code,
      title: row.v_title ?? '',
      description: row.v_description ?? '',
      lang: row.v_lang ?? '',
      deadline: row.job_deadline ? row.job_deadline.toISOString() : null,
    },
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
