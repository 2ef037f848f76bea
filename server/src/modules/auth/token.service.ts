import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { AccessTokenClaims } from '#shared/contracts/auth';
import { ErrorKey, unauthorized } from '../../common/errors';

/** Clocks of several servers disagree a little; more than this in the future is no clock error. */
const CLOCK_SKEW_SECONDS = 60;

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

export interface TokenSubject {
  code: string;
  email: string;
  role: number;
}

/** Signs and verifies access tokens (the key is AuthModule's): HS256 only, so `alg: none` and other algorithms are refused. */
@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  sign(subject: TokenSubject): { token: string; expiresAt: Date } {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + this.config.ACCESS_TOKEN_TTL;
    const claims: AccessTokenClaims = { unique_name: subject.code, nameid: subject.email, role: subject.role, nbf: iat, iat, exp };
    const token = this.jwt.sign(claims, { algorithm: 'HS256' });
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /**
   * Throws 401 for a bad token; an expired one says so, so the client knows to refresh. A valid signature
   * is not enough: every claim we issue must be there, issued in the past, and live no longer than
   * ACCESS_TOKEN_TTL, so a token signed by mistake (or with a leaked key) for 100 years is still refused.
   */
  verify(token: string): AccessTokenClaims {
    try {
      const claims = this.jwt.verify<AccessTokenClaims>(token, { algorithms: ['HS256'], clockTolerance: 0 });
      if (!this.wellFormed(claims)) throw new Error('claims');
      return claims;
    } catch (err) {
      const expired = (err as Error).name === 'TokenExpiredError';
      throw unauthorized(expired ? ErrorKey.SessionExpired : ErrorKey.Unauthorized);
    }
  }

  private wellFormed(claims: AccessTokenClaims): boolean {
    const now = Math.floor(Date.now() / 1000);
    const { unique_name, nameid, role, iat, nbf, exp } = claims;
    return (
      typeof unique_name === 'string' &&
      typeof nameid === 'string' &&
      typeof role === 'number' &&
      isTime(iat) &&
      isTime(nbf) &&
      isTime(exp) &&
      iat <= now + CLOCK_SKEW_SECONDS &&
      nbf >= iat &&
      exp > iat &&
      exp - iat <= this.config.ACCESS_TOKEN_TTL
    );
  }
}
