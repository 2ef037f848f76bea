import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { AppError, notFound } from '../../common/errors';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig, AuthProviderConfig } from '#shared/config/config.schema';
import { AuthProviderDto, LoginUrlDto } from './dto/auth-response.dto';

export const NOT_IMPLEMENTED_KEY = 'SHARED.ERROR.NOT_IMPLEMENTED';

/** External identity providers from AUTH_PROVIDERS (none by default). */
@Injectable()
export class AuthProvidersService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  list(): AuthProviderDto[] {
    return this.config.AUTH_PROVIDERS.map(({ name, label }) => ({ name, label }));
  }

  /**
   * The provider's authorisation URL (authorization code flow). The provider sends the user back to
   * `<origin>/auth/callback/<provider>` with the code and the state.
   */
  loginUrl(name: string, state: string | undefined, origin: string): LoginUrlDto {
    const provider = this.find(name);
    const url = new URL(provider.authorizeUrl);
    url.searchParams.set('client_id', provider.clientId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', provider.scope);
    if (state) url.searchParams.set('state', state);
    url.searchParams.set('redirect_uri', `${origin}/auth/callback/${encodeURIComponent(provider.name)}`);
    return { url: url.toString() };
  }

  /** The code exchange is not built yet: 404 for an unknown provider, 501 for a configured one. */
  login(name: string): never {
    this.find(name);
    throw new AppError(HttpStatus.NOT_IMPLEMENTED, NOT_IMPLEMENTED_KEY);
  }

  private find(name: string): AuthProviderConfig {
    const provider = this.config.AUTH_PROVIDERS.find((p) => p.name === name);
    if (!provider) throw notFound();
    return provider;
  }
}
