import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { UserType } from '#shared/contracts/users';
import { AuthProviderConfig } from '#shared/config/config.schema';
import { InstanceEntity } from '../../instances/instance.entity';
import { UserEntity } from '../../users/user.entity';
import { UsersRepository } from '../../users/users.repository';
import { UsersService } from '../../users/users.service';
import { LinkedIdentitiesRepository } from './linked-identities.repository';
import { OidcErrorKey, oidcError } from './oidc-errors';
import { OidcRecords } from './oidc-records';

/** What the provider said about the person: the ID token's claims merged with user-info. */
export interface ProviderClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
}

/**
 * An account made by signing in with a provider has no password: its hash is empty, which no password
 * verifies (PasswordService.verify answers false), so it is signed in to only through its linked providers.
 */
export const NO_PASSWORD = '';

/**
 * Which user a provider's account signs in: the one linked to its subject, never one found by e-mail alone.
 * An unknown subject creates a user, unless its e-mail is an existing account's: that is linked only after
 * the person gives that account's password (AuthService.login with the link token).
 */
@Injectable()
export class OidcAccountsService {
  private readonly logger = new Logger('OidcSignIn');

  constructor(
    private readonly identities: LinkedIdentitiesRepository,
    private readonly usersRepo: UsersRepository,
    private readonly users: UsersService,
    private readonly records: OidcRecords,
  ) {}

  async userFor(instance: InstanceEntity, provider: AuthProviderConfig, claims: ProviderClaims, type: number | undefined): Promise<UserEntity> {
    const linked = await this.identities.findBySubject(instance.id, provider.name, claims.sub);
    const linkedUser = linked && (await this.usersRepo.findWithInstance(linked.userId));
    if (linkedUser) return linkedUser;

    const email = claims.email?.trim().toLowerCase();
    if (!email)
      return this.refuse(provider, claims, 'the provider gave no e-mail (ask for the email scope, or give the account an address)', OidcErrorKey.EmailMissing);
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (provider.emailDomains && !provider.emailDomains.includes(domain)) {
      return this.refuse(provider, claims, `e-mail domain ${domain} is not in its emailDomains`, OidcErrorKey.EmailDomainRefused, HttpStatus.FORBIDDEN);
    }
    if (claims.email_verified !== true) {
      return this.refuse(
        provider,
        claims,
        'the provider does not vouch for the e-mail (email_verified is not true)',
        OidcErrorKey.EmailUnverified,
        HttpStatus.FORBIDDEN,
      );
    }

    const existing = await this.usersRepo.findByEmail(instance.id, email);
    if (existing) {
      const linkToken = await this.records.savePendingLink({
        instanceId: instance.id,
        userId: existing.id,
        provider: provider.name,
        subject: claims.sub,
        email,
      });
      this.logger.log(`sign-in with ${provider.name} (subject ${claims.sub}) matches an existing account by e-mail: asked for its password before linking`);
      throw oidcError(HttpStatus.CONFLICT, OidcErrorKey.LinkNeedsPassword, { linkToken, email });
    }

    const user = await this.users.register(instance, {
      email,
      passwordHash: NO_PASSWORD,
      name: (claims.given_name ?? claims.name ?? email.slice(0, email.indexOf('@'))).slice(0, 100),
      surname: claims.family_name?.slice(0, 100),
      type: type ?? UserType.Personal,
    });
    await this.identities.link({ userId: user.id, instanceId: instance.id, provider: provider.name, subject: claims.sub, email });
    this.logger.log(`sign-in with ${provider.name} created user ${user.code} for subject ${claims.sub}`);
    return user;
  }

  /** Links the provider account of a sign-in that matched this user's e-mail, now that the password proved it. */
  async linkAfterPassword(user: UserEntity, linkToken: string): Promise<void> {
    const link = await this.records.takePendingLink(linkToken);
    if (!link || link.userId !== user.id || link.instanceId !== user.instanceId) {
      this.logger.warn(`linking refused for user ${user.code}: the link token is unknown, expired, used or another account's`);
      throw oidcError(HttpStatus.BAD_REQUEST, OidcErrorKey.LinkInvalid);
    }
    await this.identities.link({ userId: user.id, instanceId: user.instanceId, provider: link.provider, subject: link.subject, email: link.email });
    this.logger.log(`user ${user.code} linked ${link.provider} (subject ${link.subject}) after giving the password`);
  }

  private refuse(provider: AuthProviderConfig, claims: ProviderClaims, why: string, key: string, status = HttpStatus.UNPROCESSABLE_ENTITY): never {
    this.logger.warn(`sign-in with ${provider.name} refused for subject ${claims.sub}: ${why}`);
    throw oidcError(status, key);
  }
}
