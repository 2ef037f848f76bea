import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import type { BlockedUserResponse } from '#shared/contracts/rest/reports';
import { notFound, unprocessable } from '../../common/errors';
import { BlocksRepository } from './blocks.repository';

export const BLOCK_USER_NOT_FOUND = 'BLOCK.USER_NOT_FOUND';
export const BLOCK_SELF = 'BLOCK.SELF';

/**
 * Blocks: the blocker gets no new chats from the blocked user and is not added by them to one (ChatGroupsService
 * asks blockedByAny / blockedByAnyOutside), and their client collapses the blocked user's messages. The blocked
 * user is never told: nothing is sent to them, and no answer they can get differs because of it except a refused
 * new chat or addition, whose error names no block.
 * Offers are untouched (docs/moderation.md, "Blocks and offers").
 */
@Injectable()
export class BlocksService {
  constructor(private readonly blocks: BlocksRepository) {}

  async block(user: AuthUser, userCode: string): Promise<void> {
    const target = await this.target(user, userCode);
    await this.blocks.block(user.id, target.id);
  }

  async unblock(user: AuthUser, userCode: string): Promise<void> {
    const target = await this.target(user, userCode);
    await this.blocks.unblock(user.id, target.id);
  }

  async list(user: AuthUser): Promise<BlockedUserResponse[]> {
    return (await this.blocks.list(user.id)).map((r) => ({ code: r.code, name: r.name, surname: r.surname, blockedAt: new Date(r.created_at).toISOString() }));
  }

  private async target(user: AuthUser, userCode: string): Promise<{ id: string }> {
    if (userCode === user.code) throw unprocessable([BLOCK_SELF]);
    const target = await this.blocks.userInInstance(user.instanceId, userCode);
    if (!target) throw notFound(BLOCK_USER_NOT_FOUND);
    return target;
  }
}
