import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { RedisService } from '#shared/redis/redis.service';

/** A sign-in under way: what the callback must match, kept until the callback or ten minutes. */
export interface PendingSignIn {
  provider: string;
  instanceId: string;
  redirectUri: string;
  codeVerifier: string;
  nonce: string;
  after: string;
  type?: number;
}

/** An account at a provider whose e-mail is an existing password account's: linked once that password is given. */
export interface PendingLink {
  instanceId: string;
  userId: string;
  provider: string;
  subject: string;
  email: string;
}

/** How to sign out at the provider when the session it started ends. */
export interface ProviderSession {
  provider: string;
  accessToken: string;
}

const PENDING_TTL = 600;

/** Short-lived sign-in records in Redis; a pending sign-in or link is taken once (GETDEL), so a replay finds nothing. */
@Injectable()
export class OidcRecords {
  constructor(private readonly redis: RedisService) {}

  async savePending(pending: PendingSignIn): Promise<string> {
    return this.put('oidc:state', pending, PENDING_TTL);
  }

  takePending(state: string): Promise<PendingSignIn | null> {
    return this.take('oidc:state', state);
  }

  savePendingLink(link: PendingLink): Promise<string> {
    return this.put('oidc:link', link, PENDING_TTL);
  }

  takePendingLink(token: string): Promise<PendingLink | null> {
    return this.take('oidc:link', token);
  }

  async saveSession(familyId: string, session: ProviderSession, ttlSeconds: number): Promise<void> {
    await this.redis.client.set(this.redis.key('oidc:session', familyId), JSON.stringify(session), { EX: ttlSeconds });
  }

  takeSession(familyId: string): Promise<ProviderSession | null> {
    return this.take('oidc:session', familyId);
  }

  private async put(kind: string, value: object, ttlSeconds: number): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.redis.client.set(this.redis.key(kind, id), JSON.stringify(value), { EX: ttlSeconds });
    return id;
  }

  private async take<T>(kind: string, id: string): Promise<T | null> {
    const raw = await this.redis.client.getDel(this.redis.key(kind, id));
    return raw ? (JSON.parse(raw) as T) : null;
  }
}
