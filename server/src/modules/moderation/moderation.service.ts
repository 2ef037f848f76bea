import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { MessageDeletedEvent } from '#shared/contracts/events';
import { forbidden, notFound } from '../../common/errors';
import { DomainEvents } from '../../common/events/domain-events';
import { moderatesInstance, moderatorScope } from '../../common/moderator-scope';
import { ChatGroupsRepository } from '../chat/chat-groups.repository';
import { RoomWatchersService } from '../chat/room-watchers.service';
import { ModerationRepository } from './moderation.repository';

/**
 * Moderators watching rooms. Watching is never secret: the group's participants see the flag, and every
 * watch, unwatch and moderator delete is written to the append-only audit log.
 */
@Injectable()
export class ModerationService implements OnModuleInit, OnModuleDestroy {
  private off?: () => void;

  constructor(
    private readonly repo: ModerationRepository,
    private readonly groups: ChatGroupsRepository,
    private readonly watchers: RoomWatchersService,
    private readonly events: DomainEvents,
  ) {}

  onModuleInit(): void {
    this.off = this.events.on('message.deleted', (e) => this.recordModeratorDelete(e));
  }

  onModuleDestroy(): void {
    this.off?.();
  }

  /** Writes one entry of the audit log (for other modules' moderator actions, e.g. resolving a report). */
  record(entry: Parameters<ModerationRepository['record']>[0]): Promise<void> {
    return this.repo.record(entry);
  }

  /** Starts watching for one socket; 403 for anyone who doesn't moderate the group. */
  async watch(user: AuthUser, groupCode: string, socketId: string): Promise<void> {
    const group = await this.moderatedGroup(user, groupCode);
    await this.repo.record({ instanceId: group.instanceId, actorId: user.id, action: 'room.watch', groupId: group.id, details: { socketId } });
    if (await this.watchers.watch({ groupCode: group.code, userCode: user.code, socketId })) await this.flagChanged(group.id, group.code);
  }

  async unwatch(user: AuthUser, groupCode: string, socketId: string): Promise<void> {
    const group = await this.moderatedGroup(user, groupCode);
    await this.release(user, group.code, socketId, group);
  }

  /** Ends a watch (also when the socket goes away). */
  async release(user: AuthUser, groupCode: string, socketId: string, known?: { id: string; instanceId: string }): Promise<void> {
    const group = known ?? (await this.groups.findByCode(groupCode));
    if (!group) return;
    await this.repo.record({ instanceId: group.instanceId, actorId: user.id, action: 'room.unwatch', groupId: group.id, details: { socketId } });
    if (await this.watchers.unwatch({ groupCode, userCode: user.code, socketId })) await this.flagChanged(group.id, groupCode);
  }

  private async moderatedGroup(user: AuthUser, groupCode: string) {
    if (moderatorScope(user).kind === 'none') throw forbidden();
    const group = await this.groups.findByCode(groupCode);
    if (!group) throw notFound();
    if (!moderatesInstance(user, group.instanceId)) throw forbidden();
    return group;
  }

  private async flagChanged(groupId: string, groupCode: string): Promise<void> {
    await this.events.emit('group.changed', { groupCode, change: 'watched', participantCodes: await this.groups.participantCodes(groupId) });
  }

  private async recordModeratorDelete(e: MessageDeletedEvent): Promise<void> {
    if (!e.byModerator) return;
    const group = await this.groups.findByCode(e.groupCode);
    if (!group) return;
    await this.repo.record({
      instanceId: group.instanceId,
      actorId: e.actorId,
      action: 'message.delete',
      groupId: group.id,
      messageCode: e.code,
      details: { seq: e.seq },
    });
  }
}
