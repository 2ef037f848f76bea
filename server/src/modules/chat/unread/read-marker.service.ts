import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { ChatAccessService } from '../chat-access.service';
import { UnreadService } from './unread.service';

/** The read-marker step of POST groups/:id/read and the socket's group:read: one rule for both. */
@Injectable()
export class ReadMarkerService {
  constructor(
    private readonly access: ChatAccessService,
    private readonly unread: UnreadService,
  ) {}

  /**
   * Moves the caller's read marker in a group forward to `seq`; only participants have one (others get 404).
   * Settles once the read's listeners (cached counts, unread:count to the user's sockets) have run.
   */
  async markRead(user: AuthUser, groupCode: string, seq: number): Promise<number> {
    const { group } = await this.access.asParticipant(user, groupCode);
    return this.unread.markRead(user, group, seq);
  }
}
