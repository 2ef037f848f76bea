import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { AuthUser } from '#shared/contracts/auth';
import { unprocessable } from '../../common/errors';
import { RateLimitService } from '../../common/rate-limit/rate-limit.service';

/**
 * How far one person can fill chats with other people: the people one call may name, the people one person may
 * bring into one group, and per-user budgets (shared by every server node) on new chats and on people added.
 * Checks that refuse with 422 run before anything is spent; a refused budget answers 429 with Retry-After.
 */
@Injectable()
export class ChatGroupLimits {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly rateLimit: RateLimitService,
  ) {}

  /** The people one call names, besides the caller (and a target's owner, who comes with the target). */
  checkCall(people: number): void {
    const max = this.config.CHAT_PEOPLE_PER_CALL;
    if (people > max) throw unprocessable(['CHAT.TOO_MANY_PEOPLE_AT_ONCE'], { max });
  }

  /** The people one person has brought into one group, with the ones they bring now. */
  checkGroup(broughtBefore: number, bringing: number): void {
    const max = this.config.CHAT_PEOPLE_PER_GROUP;
    if (broughtBefore + bringing > max) throw unprocessable(['CHAT.TOO_MANY_PEOPLE_ADDED'], { max });
  }

  /** Spends the caller's budgets: one new chat (when `creating`) and `people` people put in chats. */
  async spend(user: AuthUser, creating: boolean, people: number): Promise<void> {
    const c = this.config;
    await this.rateLimit.consume([
      ...(creating ? [{ name: 'user:chat-create', id: user.code, limit: c.CHAT_GROUP_CREATE_RATE_LIMIT, windowSeconds: c.CHAT_GROUP_CREATE_RATE_WINDOW }] : []),
      ...(people > 0
        ? [{ name: 'user:chat-people', id: user.code, limit: c.CHAT_PEOPLE_ADD_RATE_LIMIT, windowSeconds: c.CHAT_PEOPLE_ADD_RATE_WINDOW, cost: people }]
        : []),
    ]);
  }
}
