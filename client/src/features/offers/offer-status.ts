import type { OfferStatus as ContractOfferStatus } from '@contracts/offers';
import { tk } from '@/i18n/i18n';

/** Job offer statuses (spec section 4). */
export const OfferStatus = {
  Initial: 1,
  Proposal: 5,
  FinalOffer: 10,
  CustomerApproved: 50,
  Agreed: 100,
  FinalizeRequested: 130,
  PaymentPending: 160,
  PaymentDeclared: 180,
  Closed: 200,
} as const satisfies typeof ContractOfferStatus;

interface StatusLook {
  label: string;
  /** Mantine colour or CSS colour; undefined: the theme's primary colour. */
  color: string | undefined;
}

/** Spec section 4's display colours: Closed text, PaymentPending red, FinalizeRequested teal, Agreed indigo,
 * CustomerApproved purple, FinalOffer light-green, Proposal orange, Initial primary; PaymentDeclared (not in the
 * spec: the customer says they paid, the provider has not confirmed) yellow. */
const LOOKS: Record<number, StatusLook> = {
  [OfferStatus.Initial]: { label: tk('OFFER.STATUS.INITIAL'), color: undefined },
  [OfferStatus.Proposal]: { label: tk('OFFER.STATUS.PROPOSAL'), color: 'orange' },
  [OfferStatus.FinalOffer]: { label: tk('OFFER.STATUS.FINAL_OFFER'), color: 'lime' },
  [OfferStatus.CustomerApproved]: { label: tk('OFFER.STATUS.CUSTOMER_APPROVED'), color: 'grape' },
  [OfferStatus.Agreed]: { label: tk('OFFER.STATUS.AGREED'), color: 'indigo' },
  [OfferStatus.FinalizeRequested]: { label: tk('OFFER.STATUS.FINALIZE_REQUESTED'), color: 'teal' },
  [OfferStatus.PaymentPending]: { label: tk('OFFER.STATUS.PAYMENT_PENDING'), color: 'red' },
  [OfferStatus.PaymentDeclared]: { label: tk('OFFER.STATUS.PAYMENT_DECLARED'), color: 'yellow' },
  [OfferStatus.Closed]: { label: tk('OFFER.STATUS.CLOSED'), color: 'var(--mantine-color-text)' },
};

/** The label key and colour of a status; an unknown number gets a neutral look. */
export function offerStatusLook(status: number): StatusLook {
  return LOOKS[status] ?? { label: tk('OFFER.STATUS.UNKNOWN'), color: 'gray' };
}
