import { HttpStatus, Inject, Injectable, Logger } from '@nestjs/common';
import * as client from 'openid-client';
import { notFound } from '../../common/errors';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig, AuthProviderConfig } from '#shared/config/config.schema';
import { InstanceEntity } from '../instances/instance.entity';
import { AuthProviderDto, LoginResponseDto, LoginUrlDto } from './dto/auth-response.dto';
import { ProviderLoginDto } from './dto/provider-login.dto';
import { OidcAccountsService, ProviderClaims } from './oidc/oidc-accounts.service';
import { OidcClients, describe } from './oidc/oidc-clients';
import { OidcErrorKey, oidcError } from './oidc/oidc-errors';
import { OidcRecords } from './oidc/oidc-records';
import { safeRedirectUrl } from './redirect-url';
import { IssuedSession } from './refresh-cookie';
import { SessionService } from './session.service';

/**
 * Sign-in with the OpenID Connect providers of AUTH_PROVIDERS: authorization code with PKCE, state and nonce;
 * openid-client checks the ID token (signature against the provider's key set, issuer, audience, nonce, expiry).
 */
@Injectable()
export class AuthProvidersService {
  private readonly logger = new Logger('OidcSignIn');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clients: OidcClients,
    private readonly records: OidcRecords,
    private readonly accounts: OidcAccountsService,
    private readonly sessions: SessionService,
  ) {}

  /** The enabled providers offered on this instance's sign-in page. */
  list(instance: InstanceEntity): AuthProviderDto[] {
    return this.config.AUTH_PROVIDERS.filter((p) => p.enabled && this.servesInstance(p, instance)).map(({ name, label }) => ({ name, label }));
  }

  /**
   * The provider's authorisation URL. `after` (the spec's `state` query) is where the user lands once signed in;
   * the state sent to the provider is a fresh random one, also set in the browser's cookie (see the controller).
   */
  async loginUrl(
    instance: InstanceEntity,
    name: string,
    after: string | undefined,
    type: number | undefined,
    origin: string,
  ): Promise<{ url: LoginUrlDto; state: string }> {
    const provider = this.find(instance, name);
    const config = await this.clients.get(provider);
    const codeVerifier = client.randomPKCECodeVerifier();
    const nonce = client.randomNonce();
    const redirectUri = `${origin}/auth/callback/${encodeURIComponent(provider.name)}`;
    const state = await this.records.savePending({
      provider: provider.name,
      instanceId: instance.id,
      redirectUri,
      codeVerifier,
      nonce,
      after: safeRedirectUrl(after),
      type,
    });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: provider.scope,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: { url: url.href }, state };
  }

  /** Exchanges the code; `browserState` is the state cookie of the browser that asked for the login URL. */
  async login(instance: InstanceEntity, name: string, dto: ProviderLoginDto, browserState: string | undefined): Promise<IssuedSession<LoginResponseDto>> {
    const provider = this.find(instance, name);
    const pending = await this.records.takePending(dto.state);
    if (!pending || pending.provider !== provider.name || pending.instanceId !== instance.id || browserState !== dto.state) {
      const why = !pending ? 'unknown, expired or already used' : browserState !== dto.state ? "not this browser's" : 'issued for another provider or instance';
      this.logger.warn(`sign-in with ${provider.name} refused: the state is ${why} (a replayed or forged callback, or one older than 10 minutes)`);
      throw oidcError(HttpStatus.BAD_REQUEST, OidcErrorKey.StateInvalid);
    }
    const config = await this.clients.get(provider);
    const callback = new URL(pending.redirectUri);
    callback.searchParams.set('code', dto.code);
    callback.searchParams.set('state', dto.state);
    if (dto.iss) callback.searchParams.set('iss', dto.iss);

    const claims = await this.verified(provider, async () => {
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: dto.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idClaims = tokens.claims()!;
      const userInfo = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      return { claims: { ...idClaims, ...userInfo } as ProviderClaims, accessToken: tokens.access_token };
    });
    const user = await this.accounts.userFor(instance, provider, claims.claims, pending.type);
    const session = await this.sessions.start(user, instance.code, false, pending.after);
    if (config.serverMetadata().revocation_endpoint && session.familyId) {
      await this.records.saveSession(session.familyId, { provider: provider.name, accessToken: claims.accessToken }, this.config.REFRESH_TOKEN_TTL);
    }
    return session;
  }

  /** After logout: revokes at the provider the token of the sign-in that started this session, if any. */
  async signOut(familyId: string | undefined): Promise<void> {
    const session = familyId ? await this.records.takeSession(familyId) : null;
    const provider = session && this.config.AUTH_PROVIDERS.find((p) => p.name === session.provider);
    if (!session || !provider) return;
    try {
      await client.tokenRevocation(await this.clients.get(provider), session.accessToken, { token_type_hint: 'access_token' });
    } catch (err) {
      this.logger.warn(`sign-out at ${provider.name} failed: the token was not revoked there (${describe(err)}); it lapses by itself`);
    }
  }

  /** The configured provider of that name for this instance: 404 when unknown, 403 when turned off. */
  find(instance: InstanceEntity, name: string): AuthProviderConfig {
    const provider = this.config.AUTH_PROVIDERS.find((p) => p.name === name && this.servesInstance(p, instance));
    if (!provider) throw notFound();
    if (!provider.enabled) {
      this.logger.warn(`sign-in with ${name} refused: the provider is disabled in AUTH_PROVIDERS`);
      throw oidcError(HttpStatus.FORBIDDEN, OidcErrorKey.Disabled);
    }
    return provider;
  }

  private servesInstance(provider: AuthProviderConfig, instance: InstanceEntity): boolean {
    return !provider.instance || provider.instance === instance.code;
  }

  /** Runs the exchange, answering each failure with its own clear error and a log line that says what to check. */
  private async verified<T>(provider: AuthProviderConfig, exchange: () => Promise<T>): Promise<T> {
    try {
      return await exchange();
    } catch (err) {
      if (err instanceof client.ResponseBodyError) {
        this.logger.warn(
          `sign-in with ${provider.name} refused: the provider rejected the code (${err.error}: ${err.error_description ?? ''}); replayed, expired or for another client`,
        );
        throw oidcError(HttpStatus.UNAUTHORIZED, OidcErrorKey.CodeRejected);
      }
      const network = !(err instanceof client.ClientError) || err.cause instanceof TypeError || (err.cause as Error | undefined)?.name === 'TimeoutError';
      if (network) {
        this.logger.warn(`sign-in with ${provider.name} failed: the provider did not answer in time or well (${describe(err)})`);
        throw oidcError(HttpStatus.SERVICE_UNAVAILABLE, OidcErrorKey.Unavailable);
      }
      this.logger.warn(
        `sign-in with ${provider.name} refused: the ID token or user-info did not pass the checks (${describe(err)}); check clientId and issuer, and the provider's keys`,
      );
      throw oidcError(HttpStatus.UNAUTHORIZED, OidcErrorKey.TokenInvalid);
    }
  }
}
