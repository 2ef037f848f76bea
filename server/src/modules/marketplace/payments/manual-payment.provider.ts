import { Injectable } from '@nestjs/common';
import { ChargeRequest, ChargeResult, PaymentProvider } from './payment-provider';

/**
 * The built-in provider: the customer states that they paid (e.g. by bank transfer). Only the provider of the
 * offer can know whether the money arrived, so the payment is pending (with the reference the customer gave, or
 * the payment's readable number) until they confirm it (confirmPayment) or say it has not arrived (disputePayment).
 */
@Injectable()
export class ManualPaymentProvider implements PaymentProvider {
  readonly name = 'manual';

  charge(request: ChargeRequest): Promise<ChargeResult> {
    return Promise.resolve({ status: 'pending', reference: request.reference ?? request.paymentNumber });
  }
}
