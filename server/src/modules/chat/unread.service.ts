import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { DomainEvents } from '../../common/events/domain-events';
import { ChatGroupEntity } from './chat-group.entity';
import { ChatGroupsRepository } from './chat-groups.repository';
import { UnreadCountDto } from './dto/chat-response.dto';

/**
 * Unread counts are never stored: per group they are the live messages after the reader's marker that
 * others wrote, counted from the (group_id, seq) partial index, and only for groups whose last seq is past
 * the marker. So they are exact after sends, reads, deletes and joins without any bookkeeping.
 */
@Injectable()
export class UnreadService {
  constructor(
    private readonly groups: ChatGroupsRepository,
    private readonly events: DomainEvents,
  ) {}

  async counts(user: AuthUser): Promise<UnreadCountDto> {
    const rows = await this.groups.unreadByGroup(user.id);
    const groups: Record<string, number> = {};
    let total = 0;
    for (const r of rows) {
      if (r.unread > 0) {
        groups[r.code] = r.unread;
        total += r.unread;
      }
    }
    return { total, groups };
  }

  /** Moves the read marker; the promise settles once listeners (the realtime push) have run. */
  async markRead(user: AuthUser, group: ChatGroupEntity, seq: number): Promise<number> {
    const { readSeq, unread, lastSeq } = await this.groups.markRead(group.id, user.id, seq);
    await this.events.emit('group.read', { groupCode: group.code, userCode: user.code, seq: readSeq, unread, lastSeq });
    return readSeq;
  }
}
