import { Injectable } from '@nestjs/common';
import { ChargeRequest, ChargeResult, PaymentProvider } from './payment-provider';

/**
 * The built-in provider: the customer states that they paid (e.g. by bank transfer); the payment is
 * recorded as succeeded with the reference they gave, or the payment's own code.
 */
@Injectable()
export class ManualPaymentProvider implements PaymentProvider {
  readonly name = 'manual';

  charge(request: ChargeRequest): Promise<ChargeResult> {
    return Promise.resolve({ status: 'succeeded', reference: request.reference ?? `manual-${request.paymentCode}` });
  }
}
