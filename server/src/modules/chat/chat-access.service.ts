import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { forbidden, notFound } from '../../common/errors';
import { moderatesInstance } from '../../common/moderator-scope';
import { ChatGroupEntity } from './chat-group.entity';
import { ChatParticipantEntity } from './chat-participant.entity';
import { ChatGroupsRepository } from './chat-groups.repository';
import { RoomWatchersService } from './room-watchers.service';

/** A moderator in scope asked for a room's messages without watching it (room:watch) first. */
export const WATCH_REQUIRED = 'MODERATION.WATCH_REQUIRED';

export interface GroupAccess {
  group: ChatGroupEntity;
  /** null when the caller reads as a moderator without being in the group */
  participant: ChatParticipantEntity | null;
}

/**
 * Who may see a group. Anyone else gets the same 404 as for a group that doesn't exist, so a code
 * reveals nothing. Moderators who are not in a group read its messages only while they watch it, which
 * is audited and shown to its participants; without a watch they see the group, never its messages.
 */
@Injectable()
export class ChatAccessService {
  constructor(
    private readonly groups: ChatGroupsRepository,
    private readonly watchers: RoomWatchersService,
  ) {}

  async asParticipant(user: AuthUser, groupCode: string): Promise<GroupAccess & { participant: ChatParticipantEntity }> {
    const group = await this.groups.findByCode(groupCode);
    const participant = group && (await this.groups.findParticipant(group.id, user.id));
    if (!group || !participant) throw notFound();
    return { group, participant };
  }

  /** The group and the caller's place in it, for its participants and moderators in scope (not its messages). */
  async asObserver(user: AuthUser, groupCode: string): Promise<GroupAccess> {
    const group = await this.groups.findByCode(groupCode);
    if (!group) throw notFound();
    const participant = await this.groups.findParticipant(group.id, user.id);
    if (!participant && !moderatesInstance(user, group.instanceId)) throw notFound();
    return { group, participant };
  }

  /** Who may read the messages: participants, and moderators in scope while they watch the room (else 403). */
  async asReader(user: AuthUser, groupCode: string): Promise<GroupAccess> {
    const access = await this.asObserver(user, groupCode);
    if (!access.participant && !(await this.watchers.isWatchedBy(access.group.code, user.code))) throw forbidden(WATCH_REQUIRED);
    return access;
  }

  /** Of these groups (ids), those the user watches live as a moderator: whose files they may read without being in them. */
  async watchedGroupIds(user: AuthUser, groupIds: string[]): Promise<Set<string>> {
    const codes = await this.groups.codesByIds([...new Set(groupIds)]);
    const watched = new Set<string>();
    for (const [id, code] of codes) if (await this.watchers.isWatchedBy(code, user.code)) watched.add(id);
    return watched;
  }
}
