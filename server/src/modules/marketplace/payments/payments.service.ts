import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '#shared/contracts/auth';
import { newCode } from '../../../common/codes';
import { AppError } from '../../../common/errors';
import { OfferRow } from '../offers.repository';
import { PaymentEntity } from './payment.entity';
import { DEFAULT_PAYMENT_PROVIDER, PAYMENT_PROVIDERS, PaymentProvider } from './payment-provider';
import { PaymentsRepository } from './payments.repository';

/**
 * Charges the offer's agreed price through a provider and records the payment, inside the offer's move; settles a
 * declared (pending) payment as its payee says.
 */
@Injectable()
export class PaymentsService {
  constructor(
    @Inject(PAYMENT_PROVIDERS) private readonly providers: PaymentProvider[],
    private readonly payments: PaymentsRepository,
  ) {}

  async charge(
    tx: EntityManager,
    payer: AuthUser,
    offer: OfferRow,
    options: { provider?: string; reference?: string; idempotencyKey: string | null },
  ): Promise<PaymentEntity> {
    const provider = this.providers.find((p) => p.name === (options.provider ?? DEFAULT_PAYMENT_PROVIDER));
    if (!provider || offer.price_amount === null || offer.price_currency === null) throw new AppError(HttpStatus.UNPROCESSABLE_ENTITY, 'JOB_OFFER.CANNOT_PAY');
    const code = newCode();
    const paymentNumber = await this.payments.nextNumber(tx);
    const result = await provider.charge({
      offerCode: offer.code,
      paymentCode: code,
      paymentNumber,
      amount: offer.price_amount,
      currency: offer.price_currency,
      payerCode: payer.code,
      idempotencyKey: options.idempotencyKey,
      reference: options.reference ?? null,
    });
    // A failed charge rolls the move back; a pending one (a declared payment) waits for the payee.
    if (result.status !== 'succeeded' && result.status !== 'pending') throw new AppError(HttpStatus.PAYMENT_REQUIRED, 'JOB_OFFER.PAYMENT_FAILED');
    return this.payments.insert(tx, {
      code,
      offerId: offer.id,
      payerId: payer.id,
      amount: offer.price_amount,
      currency: offer.price_currency,
      status: result.status,
      provider: provider.name,
      reference: result.reference,
    });
  }

  /** The payee's word on the offer's declared payment: it arrived (succeeded) or it has not (disputed). */
  async settle(tx: EntityManager, offer: OfferRow, status: 'succeeded' | 'disputed'): Promise<PaymentEntity> {
    const payment = await this.payments.settlePending(tx, offer.id, status);
    // PaymentDeclared always has its pending payment (both are written in the pay move); never settle nothing.
    if (!payment) throw new AppError(HttpStatus.CONFLICT, 'JOB_OFFER.CHANGED_MEANWHILE');
    return payment;
  }
}
