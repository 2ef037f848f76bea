import { ConnectedSocket, MessageBody, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Socket } from 'socket.io';
import { tooManyRequests } from '../common/errors';
import { validatePayload } from '../common/validation';
import { PresenceAudience } from '../modules/presence/presence-audience.service';
import { PresenceWatchDto } from './dto/socket-events.dto';
import { presenceRoom } from './presence-broadcaster.service';
import { liveStateOf, respond } from './socket-handler';

/**
 * presence:watch: the statuses of people the user deals with, and their presence pushes from then on (the
 * presence rooms PresenceBroadcaster emits to). Neither chat nor moderation: it spans every group the user is in.
 */
@WebSocketGateway()
export class PresenceWatchGateway {
  constructor(private readonly presenceAudience: PresenceAudience) {}

  @SubscribeMessage('presence:watch')
  watchPresence(@ConnectedSocket() socket: Socket, @MessageBody() body: unknown) {
    return respond(async () => {
      const { user, userLimits } = liveStateOf(socket);
      if (!userLimits.watch.take()) throw tooManyRequests(1);
      const dto = await validatePayload(PresenceWatchDto, body);
      // Only people the user deals with (PresenceAudience); others are left out, as if unknown.
      const statuses = await this.presenceAudience.statusesFor(user, dto.userCodes);
      await socket.join(statuses.map((s) => presenceRoom(s.userCode)));
      return { statuses };
    });
  }
}
