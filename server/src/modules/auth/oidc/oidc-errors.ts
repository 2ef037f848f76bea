import { HttpStatus } from '@nestjs/common';
import { AppError } from '../../../common/errors';

/** Translation keys of sign-in with an identity provider; the client shows each on the sign-in screen. */
export const OidcErrorKey = {
  Disabled: 'SHARED.AUTH_PROVIDER.DISABLED',
  Unavailable: 'SHARED.AUTH_PROVIDER.UNAVAILABLE',
  StateInvalid: 'SHARED.AUTH_PROVIDER.STATE_INVALID',
  CodeRejected: 'SHARED.AUTH_PROVIDER.CODE_REJECTED',
  TokenInvalid: 'SHARED.AUTH_PROVIDER.TOKEN_INVALID',
  EmailMissing: 'SHARED.AUTH_PROVIDER.EMAIL_MISSING',
  EmailUnverified: 'SHARED.AUTH_PROVIDER.EMAIL_UNVERIFIED',
  EmailDomainRefused: 'SHARED.AUTH_PROVIDER.EMAIL_DOMAIN_REFUSED',
  LinkNeedsPassword: 'SHARED.AUTH_PROVIDER.LINK_NEEDS_PASSWORD',
  LinkInvalid: 'SHARED.AUTH_PROVIDER.LINK_INVALID',
  LastSignInMethod: 'SHARED.AUTH_PROVIDER.LAST_SIGN_IN_METHOD',
} as const;

export const oidcError = (status: HttpStatus, key: string, data?: Record<string, unknown>) => new AppError(status, key, data);
