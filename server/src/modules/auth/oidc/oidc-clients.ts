import { Inject, Injectable, Logger } from '@nestjs/common';
import * as client from 'openid-client';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig, AuthProviderConfig } from '#shared/config/config.schema';
import { OidcErrorKey, oidcError } from './oidc-errors';

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/**
 * The openid-client configuration of each provider, from its discovery document, made on first use and kept
 * (openid-client fetches the key set itself, again when a token names a key it has not seen: key rotation).
 * A failed discovery is not kept, so a provider that was down is tried again on the next sign-in.
 */
@Injectable()
export class OidcClients {
  private readonly logger = new Logger('OidcSignIn');
  private readonly configs = new Map<string, Promise<client.Configuration>>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async get(provider: AuthProviderConfig): Promise<client.Configuration> {
    let made = this.configs.get(provider.name);
    if (!made) {
      made = this.discover(provider);
      this.configs.set(provider.name, made);
      made.catch(() => this.configs.delete(provider.name));
    }
    return made;
  }

  private async discover(provider: AuthProviderConfig): Promise<client.Configuration> {
    const issuer = new URL(provider.issuer);
    // Plain http only for a provider on this machine (development and tests); anywhere else it must be https.
    const insecure = issuer.protocol === 'http:' && isLoopback(issuer);
    try {
      return await client.discovery(
        issuer,
        provider.clientId,
        undefined,
        provider.clientSecret ? client.ClientSecretBasic(provider.clientSecret) : client.None(),
        // The ID token's signature is checked against the provider's published keys too, not only its claims
        // (openid-client skips that by default for a token that came straight from the token endpoint).
        { timeout: this.config.AUTH_PROVIDER_TIMEOUT, execute: [client.enableNonRepudiationChecks, ...(insecure ? [client.allowInsecureRequests] : [])] },
      );
    } catch (err) {
      this.logger.warn(
        `sign-in with ${provider.name} failed: discovery at ${provider.issuer} did not answer in time or well (${describe(err)}); check the issuer URL and that the provider is up`,
      );
      throw oidcError(503, OidcErrorKey.Unavailable);
    }
  }
}

/** A short reason for the log: the library's error code and message, and its cause's. */
export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = (err as { code?: string }).code;
  const cause = err.cause instanceof Error ? `; ${err.cause.message}` : '';
  return `${code ? `${code}: ` : ''}${err.message}${cause}`;
}
