import { useEffect, useState } from 'react';
import type { User } from '@/api/types';
import { userApi } from '@/api/user.api';
import type { OfferSide } from './offer-actions';

/** The party of an offer this user deals with: the customer for its provider, else (customer or onlooker) the provider. */
export function otherPartyOf(offer: { providerCode: string; customerCode: string }, side: OfferSide | null): { code: string; role: OfferSide } {
  return side === 'provider' ? { code: offer.customerCode, role: 'customer' } : { code: offer.providerCode, role: 'provider' };
}

/** A user by code (null while loading or when they cannot be loaded); lookups of one code are shared by the HTTP cache. */
export function useOfferParty(code: string): User | null {
  const [user, setUser] = useState<User | null>(null);
  useEffect(() => {
    let live = true;
    setUser(null);
    userApi
      .byCode(code)
      .then((u) => live && setUser(u))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [code]);
  return user;
}
