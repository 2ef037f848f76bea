/** What a payment provider is asked to do: take this amount from the payer for this offer. */
export interface ChargeRequest {
  offerCode: string;
  paymentCode: string;
  /** decimal string, as validated and stored (numeric(14,2)) */
  amount: string;
  currency: string;
  payerCode: string;
  /** the caller's Idempotency-Key, passed on so a provider can dedupe too */
  idempotencyKey: string | null;
  /** free text the payer gave (a transfer reference for manual payments) */
  reference: string | null;
  /** the payment's readable reference, "PAY-2026-000123" (the payment code is an internal id, never shown) */
  paymentNumber: string;
}

export interface ChargeResult {
  /**
   * succeeded: the money was taken (the offer closes at once); pending: the payer says they paid and the payee
   * confirms it (the offer waits in PaymentDeclared); failed: nothing was taken (402, nothing changes).
   */
  status: 'succeeded' | 'pending' | 'failed';
  /** the provider's own id for the payment */
  reference: string | null;
}

/**
 * A way to pay. The marketplace records what `charge` answers; a provider must not charge twice for the
 * same paymentCode. A card provider can be added behind this interface (registered under PAYMENT_PROVIDERS).
 */
export interface PaymentProvider {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
}

export const PAYMENT_PROVIDERS = Symbol('PAYMENT_PROVIDERS');

/** Names accepted in a pay request's `provider`. */
export const PAYMENT_PROVIDER_NAMES = ['manual'] as const;
export const DEFAULT_PAYMENT_PROVIDER = 'manual';
