import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { notFound } from '../../../common/errors';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { UsersRepository } from '../../users/users.repository';
import { LinkedProviderDto } from '../dto/auth-response.dto';
import { LinkedIdentitiesRepository } from './linked-identities.repository';
import { NO_PASSWORD } from './oidc-accounts.service';
import { OidcErrorKey, oidcError } from './oidc-errors';

/** The profile's linked providers: listed, and removed while another way to sign in remains. */
@Injectable()
export class LinkedProvidersService {
  constructor(
    private readonly identities: LinkedIdentitiesRepository,
    private readonly users: UsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(userId: string): Promise<LinkedProviderDto[]> {
    const rows = await this.identities.listForUser(userId);
    return rows.map((row) => ({
      name: row.provider,
      label: this.config.AUTH_PROVIDERS.find((p) => p.name === row.provider)?.label ?? row.provider,
      email: row.email,
      linkedAt: row.createdAt.toISOString(),
    }));
  }

  async remove(userId: string, provider: string): Promise<void> {
    const [rows, user] = await Promise.all([this.identities.listForUser(userId), this.users.findWithInstance(userId)]);
    if (!user || !rows.some((row) => row.provider === provider)) throw notFound();
    if (user.passwordHash === NO_PASSWORD && rows.length === 1) throw oidcError(HttpStatus.CONFLICT, OidcErrorKey.LastSignInMethod);
    await this.identities.unlink(userId, provider);
  }
}
