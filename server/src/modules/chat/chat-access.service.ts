import { Injectable } from '@nestjs/common';
import { AuthUser } from '../../contracts/auth';
import { Role } from '../../contracts/roles';
import { notFound } from '../../common/errors';
import { ChatGroupEntity } from './chat-group.entity';
import { ChatParticipantEntity } from './chat-participant.entity';
import { ChatGroupsRepository } from './chat-groups.repository';

export interface GroupAccess {
  group: ChatGroupEntity;
  /** null when the caller reads as a moderator without being in the group */
  participant: ChatParticipantEntity | null;
}

/** Moderators: instance admins in their own instance, global admins everywhere. */
export function moderatesGroup(user: AuthUser, group: ChatGroupEntity): boolean {
  return user.role === Role.GlobalAdmin || (user.role === Role.InstanceAdmin && user.instanceId === group.instanceId);
}

/**
 * Who may see a group. Anyone else gets the same 404 as for a group that doesn't exist, so a code
 * reveals nothing.
 */
@Injectable()
export class ChatAccessService {
  constructor(private readonly groups: ChatGroupsRepository) {}

  async asParticipant(user: AuthUser, groupCode: string): Promise<GroupAccess & { participant: ChatParticipantEntity }> {
    const group = await this.groups.findByCode(groupCode);
    const participant = group && (await this.groups.findParticipant(group.id, user.id));
    if (!group || !participant) throw notFound();
    return { group, participant };
  }

  async asReader(user: AuthUser, groupCode: string): Promise<GroupAccess> {
    const group = await this.groups.findByCode(groupCode);
    if (!group) throw notFound();
    const participant = await this.groups.findParticipant(group.id, user.id);
    if (!participant && !moderatesGroup(user, group)) throw notFound();
    return { group, participant };
  }
}
