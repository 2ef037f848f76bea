import { BlocksRepository } from '../blocks/blocks.repository';
import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { AuthUser } from '#shared/contracts/auth';
import { ChatGroupType, ParticipantRole } from '#shared/contracts/chat';
import { newCode } from '../../common/codes';
import { forbidden, notFound, unprocessable } from '../../common/errors';
import { DomainEvents } from '../../common/events/domain-events';
import { ChatAccessService } from './chat-access.service';
import { ChatGroupEntity } from './chat-group.entity';
import { ChatGroupLimits } from './chat-groups.limits';
import { ChatGroupsRepository } from './chat-groups.repository';
import { ChatTarget, ChatTargets } from './chat-targets';
import { ChatMessagesRepository } from './chat-messages.repository';
import { ChatUsersRepository } from './chat-users.repository';
import { mapGroupForObserver, mapGroupRow } from './chat.mapper';
import { RoomWatchersService } from './room-watchers.service';
import { UnreadService } from './unread/unread.service';
import { pageOf } from '../../common/dto/page-query.dto';
import { AddParticipantsDto, GROUP_PAGE_SIZE, GroupListQueryDto, PatchGroupDto } from './dto/chat-request.dto';
import { ChatGroupDto, ChatGroupPageDto } from './dto/chat-response.dto';
import { visibleText } from '../../common/visible-text';

const LIST_PARTICIPANTS = 20;
const TARGET_NOT_FOUND = 'CHAT.TARGET_NOT_FOUND';
/** Chats whose two parties must stay: an offer's (its provider and customer). */
const TWO_PARTY_TYPES: number[] = [ChatGroupType.JobOffer];
/** Chats made for a target, whose owner (the job's customer) stays in them. */
const TARGET_OWNED_TYPES: number[] = [ChatGroupType.JobFaq, ChatGroupType.Job];

/** A new chat with someone who does not take chats from the caller (they blocked them). */
export const CHAT_CANNOT_START = 'CHAT.CANNOT_START';

@Injectable()
export class ChatGroupsService {
  private readonly logger = new Logger(ChatGroupsService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly access: ChatAccessService,
    private readonly groups: ChatGroupsRepository,
    private readonly messages: ChatMessagesRepository,
    private readonly users: ChatUsersRepository,
    private readonly events: DomainEvents,
    private readonly watchers: RoomWatchersService,
    private readonly targets: ChatTargets,
    private readonly limits: ChatGroupLimits,
    private readonly unread: UnreadService,
    private readonly blocks: BlocksRepository,
  ) {}

  /** The caller's groups, newest activity first. */
  async list(user: AuthUser, query: GroupListQueryDto): Promise<ChatGroupPageDto> {
    const { page, pageSize } = pageOf(query, GROUP_PAGE_SIZE);
    const rows = await this.groups.listForUser(user.id, (page - 1) * pageSize, pageSize + 1);
    const hasMore = rows.length > pageSize;
    const groups = await this.hydrate(rows.slice(0, pageSize), LIST_PARTICIPANTS, query.lang, user.id);
    return { groups, page, pageSize, hasMore };
  }

  /** One group as its participant sees it, or as a moderator in scope observes it (without any message). */
  async get(user: AuthUser, groupCode: string, lang?: string): Promise<ChatGroupDto> {
    const { group, participant } = await this.access.asObserver(user, groupCode);
    if (!participant) return (await this.snapshot(group.code))!;
    return this.view(user, group, lang);
  }

  /** A group as everyone sees it (no personal read marker), for pushes to all its participants. */
  async snapshot(groupCode: string): Promise<ChatGroupDto | null> {
    const group = await this.groups.findByCode(groupCode);
    if (!group) return null;
    const [participants, watched, titles] = await Promise.all([
      this.groups.participants([group.id]),
      this.watchers.watched([group.code]),
      this.groups.jobTitles([group], null),
    ]);
    return mapGroupForObserver(group, participants, watched.has(group.code), titles.get(group.targetId ?? '') ?? null);
  }

  /** The direct chat with exactly these people (and the caller), if one exists. */
  async findByUsers(user: AuthUser, userCodes: string[]): Promise<ChatGroupDto | null> {
    const ids = await this.resolveUsers(user, userCodes);
    const group = await this.groups.findDirect(user.instanceId, directKey([user.id, ...ids]));
    return group ? this.view(user, group) : null;
  }

  /**
   * Starts a chat with these people, or reuses the direct chat between exactly them. createNewGroup
   * always starts a fresh group.
   */
  async startWithUsers(user: AuthUser, userCodes: string[], createNewGroup = false): Promise<ChatGroupEntity> {
    const ids = await this.resolveUsers(user, userCodes);
    const others = ids.filter((id) => id !== user.id);
    this.limits.checkCall(others.length);
    const everyone = [user.id, ...others];
    this.checkSize(everyone.length);
    this.limits.checkGroup(0, others.length);
    const key = createNewGroup ? null : directKey(everyone);
    // Reusing the direct chat that exists creates nothing and spends no budget.
    const existing = key && (await this.groups.findDirect(user.instanceId, key));
    if (existing) return existing;
    // Someone who blocked the caller gets no new chat from them; the error names no block.
    if (await this.blocks.blockedByAny(others, user.id)) throw forbidden(CHAT_CANNOT_START);
    await this.limits.spend(user, true, others.length);
    const { group, created } = await this.groups.create(
      {
        code: newCode(),
        instanceId: user.instanceId,
        type: ChatGroupType.User,
        name: null,
        subtitle: null,
        targetId: null,
        directKey: key,
        createdBy: user.id,
      },
      everyone.map((id) => (id === user.id ? { userId: id, role: ParticipantRole.Owner } : { userId: id, role: ParticipantRole.Member, addedBy: user.id })),
    );
    if (created) await this.emitChanged(group, 'created');
    return group;
  }

  /** The group of a target, if it exists and the caller may read it. */
  async findByTarget(user: AuthUser, type: ChatGroupType, targetId: string): Promise<ChatGroupDto | null> {
    const group = await this.groups.findByTarget(user.instanceId, type, targetId);
    if (!group) return null;
    try {
      return await this.get(user, group.code);
    } catch {
      return null;
    }
  }

  /**
   * Finds or creates the one group of a target. Only for a target that exists and that the caller may see
   * (else 404 CHAT.TARGET_NOT_FOUND); its owner is always in it, as the group's owner, with the caller and the
   * named participants. An existing group is handed only to someone already in it (or, for a chat open to
   * all who see the target, after adding them), so target ids can't be probed.
   */
  async openForTarget(user: AuthUser, type: ChatGroupType, targetId: string, participantCodes: string[] = []): Promise<ChatGroupEntity> {
    const target = await this.targets.find(user, type, targetId);
    if (!target) throw notFound(TARGET_NOT_FOUND);
    const existing = await this.groups.findByTarget(target.instanceId, type, targetId);
    if (existing) return this.enterTargetGroup(user, existing, target);
    if (!target.mayCreate) throw notFound(TARGET_NOT_FOUND);
    const ids = await this.resolveUsers(user, participantCodes, target.instanceId);
    const named = ids.filter((id) => id !== user.id && id !== target.ownerId);
    this.limits.checkCall(named.length);
    const everyone = [...new Set([target.ownerId, user.id, ...named])];
    this.checkSize(everyone.length);
    this.limits.checkGroup(0, named.length);
    await this.limits.spend(user, true, named.length);
    const { group, created } = await this.groups.create(
      { code: newCode(), instanceId: target.instanceId, type, name: null, subtitle: null, targetId, directKey: null, createdBy: user.id },
      everyone.map((id) => ({
        userId: id,
        role: id === target.ownerId ? ParticipantRole.Owner : ParticipantRole.Member,
        addedBy: named.includes(id) ? user.id : null,
      })),
    );
    if (!created) return this.enterTargetGroup(user, group, target);
    await this.emitChanged(group, 'created');
    return group;
  }

  private async enterTargetGroup(user: AuthUser, group: ChatGroupEntity, target: ChatTarget): Promise<ChatGroupEntity> {
    if (await this.groups.findParticipant(group.id, user.id)) return group;
    if (!target.openToAll) throw notFound(TARGET_NOT_FOUND);
    const added = await this.groups.addParticipants(group.id, [...new Set([user.id, target.ownerId])]);
    if (added.length) await this.emitChanged(group, 'participants');
    return group;
  }

  /** Participants only: moderators who are not in a chat can neither rename it nor add anyone (themselves included). */
  async rename(user: AuthUser, groupCode: string, dto: PatchGroupDto): Promise<ChatGroupDto> {
    const { group } = await this.access.asParticipant(user, groupCode);
    const fields: { name?: string | null; subtitle?: string | null } = {};
    // Cleaned like people's names (docs/security.md); one that cleans to nothing means no name.
    if (dto.name !== undefined) fields.name = visibleText(dto.name ?? '') || null;
    if (dto.subtitle !== undefined) fields.subtitle = visibleText(dto.subtitle ?? '') || null;
    if (Object.keys(fields).length === 0) throw unprocessable(['VALIDATION.GROUP.NOTHING_TO_CHANGE']);
    await this.groups.rename(group.id, fields);
    await this.emitChanged(group, 'renamed');
    return this.get(user, groupCode);
  }

  async addParticipants(user: AuthUser, groupCode: string, dto: AddParticipantsDto): Promise<ChatGroupDto> {
    const { group } = await this.access.asParticipant(user, groupCode);
    const ids = (await this.resolveUsers(user, dto.participants, group.instanceId)).filter((id) => id !== user.id);
    this.limits.checkCall(ids.length);
    this.checkSize((await this.groups.countParticipants(group.id)) + ids.length);
    this.limits.checkGroup(await this.groups.countAddedBy(group.id, user.id), ids.length);
    // Nobody is brought into a chat by someone they blocked; as for a new chat, the error names no block.
    if (await this.blocks.blockedByAnyOutside(group.id, ids, user.id)) throw forbidden(CHAT_CANNOT_START);
    await this.limits.spend(user, false, ids.length);
    const added = await this.groups.addParticipants(group.id, ids, group.directKey, user.id);
    if (added.length) await this.emitChanged(group, 'participants');
    return this.get(user, groupCode);
  }

  /**
   * Takes the caller out of a chat: it leaves their list, their unread counts and their pushes; what they wrote
   * stays. Refused (422) where both parties must stay (an offer's chat, any chat of two) and for the owner of a
   * target's chat (the job's customer). Its people are told with group:updated, the caller's other screens too.
   */
  async leave(user: AuthUser, groupCode: string): Promise<void> {
    const { group, participant } = await this.access.asParticipant(user, groupCode);
    if (TWO_PARTY_TYPES.includes(group.type)) throw unprocessable(['CHAT.LEAVE.TWO_PARTY_CHAT']);
    if (TARGET_OWNED_TYPES.includes(group.type) && participant.role === ParticipantRole.Owner) throw unprocessable(['CHAT.LEAVE.TARGET_OWNER']);
    const result = await this.groups.leave(group.id, user.id, group.type === ChatGroupType.User ? 2 : 0);
    if (!result.left) throw result.reason === 'too-few' ? unprocessable(['CHAT.LEAVE.TWO_PARTY_CHAT']) : notFound();
    const stayed = await this.groups.participantCodes(group.id);
    this.events.emit('group.changed', { groupCode: group.code, change: 'participants', participantCodes: [...stayed, user.code] });
    // Best effort once left: cached counts expire, so a failure here heals by itself.
    await this.unread
      .fill([user.code], group.code, result.lastSeq)
      .catch((err: unknown) => this.logger.warn(`unread counts after leaving: ${(err as Error).message}`));
  }

  view(user: AuthUser, group: ChatGroupEntity, lang?: string): Promise<ChatGroupDto> {
    return this.groups
      .listForUser(user.id, 0, 1, group.code)
      .then((rows) => (rows.length ? this.hydrate(rows, undefined, lang, user.id) : Promise.reject(notFound())))
      .then(([dto]) => dto);
  }

  /** Groups as `readerId` sees them; words (job titles) in `lang`, else in the reader's stored language. */
  private async hydrate(
    rows: Awaited<ReturnType<ChatGroupsRepository['listForUser']>>,
    participantLimit?: number,
    lang?: string,
    readerId?: string,
  ): Promise<ChatGroupDto[]> {
    const ids = rows.map((r) => r.id);
    const lastIds = rows.map((r) => r.last_message_id).filter((id): id is string => id !== null);
    const [participants, lastMessages, watched, titles] = await Promise.all([
      this.groups.participants(ids, participantLimit),
      this.messages.findByIds(lastIds),
      this.watchers.watched(rows.map((r) => r.code)),
      this.groups.jobTitles(
        rows.map((r) => ({ type: r.type, targetId: r.target_id })),
        lang ?? null,
        readerId,
      ),
    ]);
    return rows.map((row) =>
      mapGroupRow(
        row,
        participants.filter((p) => p.group_id === row.id),
        lastMessages.find((m) => m.id === row.last_message_id),
        watched.has(row.code),
        titles.get(row.target_id ?? '') ?? null,
      ),
    );
  }

  /** User codes → ids within the instance; an unknown or foreign code is one 422, revealing nothing about which. */
  private async resolveUsers(user: AuthUser, codes: string[], instanceId = user.instanceId): Promise<string[]> {
    const wanted = [...new Set(codes)];
    if (wanted.length === 0) return [];
    const found = await this.users.idsByCodes(instanceId, wanted);
    if (found.length !== wanted.length) throw unprocessable(['CHAT.UNKNOWN_USERS']);
    return found;
  }

  private checkSize(count: number): void {
    if (count > this.config.CHAT_MAX_PARTICIPANTS) throw unprocessable(['CHAT.TOO_MANY_PARTICIPANTS'], { max: this.config.CHAT_MAX_PARTICIPANTS });
  }

  private async emitChanged(group: ChatGroupEntity, change: 'created' | 'renamed' | 'participants'): Promise<void> {
    this.events.emit('group.changed', { groupCode: group.code, change, participantCodes: await this.groups.participantCodes(group.id) });
  }
}

/** The same set of people always gives the same key. */
export function directKey(userIds: string[]): string {
  return createHash('sha256')
    .update([...new Set(userIds)].sort().join(','))
    .digest('hex');
}
