import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { moderatedInstanceFilter } from '../../common/moderator-scope';
import { RoomWatchersService } from '../chat/room-watchers.service';
import { PresenceService } from '#shared/presence/presence.service';
import { AuditPageDto, BusyRoomDto } from './dto/moderation.dto';
import { ModerationRepository } from './moderation.repository';

const BUSIEST = 20;

/** What moderators read: the audit log and where the activity is. */
@Injectable()
export class ModerationQueriesService {
  constructor(
    private readonly repo: ModerationRepository,
    private readonly watchers: RoomWatchersService,
    private readonly presence: PresenceService,
  ) {}

  async audit(user: AuthUser, page: number, pageSize: number): Promise<AuditPageDto> {
    const rows = await this.repo.audit(moderatedInstanceFilter(user), (page - 1) * pageSize, pageSize + 1);
    return {
      entries: rows.slice(0, pageSize).map((r) => ({
        at: new Date(r.at).toISOString(),
        action: r.action,
        actorCode: r.actor_code,
        actorName: r.actor_name,
        groupCode: r.group_code,
        messageCode: r.message_code,
        details: r.details,
      })),
      page,
      pageSize,
      hasMore: rows.length > pageSize,
    };
  }

  async busiestRooms(user: AuthUser, minutes: number): Promise<BusyRoomDto[]> {
    const rooms = await this.repo.busiestRooms(moderatedInstanceFilter(user), minutes, BUSIEST);
    const everyone = [...new Set(rooms.flatMap((r) => r.participant_codes))];
    const [online, watched] = await Promise.all([this.presence.onlineAmong(everyone), this.watchers.watched(rooms.map((r) => r.code))]);
    return rooms.map((r) => ({
      code: r.code,
      name: r.name,
      type: r.type,
      messages: r.messages,
      lastMessageAt: new Date(r.last_message_at).toISOString(),
      participants: r.participant_codes.length,
      connectedParticipants: r.participant_codes.filter((c) => online.has(c)).length,
      watched: watched.has(r.code),
    }));
  }
}
