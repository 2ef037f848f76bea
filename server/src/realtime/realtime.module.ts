import { Module } from '@nestjs/common';
import { Authenticator } from '../modules/auth/authenticator';
import { FanoutModule } from '../fanout/fanout.module';
import { AuthModule } from '../modules/auth/auth.module';
import { ChatAccessModule } from '../modules/chat/chat-access.module';
import { ChatModule } from '../modules/chat/chat.module';
import { ModerationModule } from '../modules/moderation/moderation.module';
import { PresenceModule } from '../modules/presence/presence.module';
import { UsersModule } from '../modules/users/users.module';
import { InstanceFanoutListener } from './instance-fanout.listener';
import { OfferFanoutListener } from './offer-fanout.listener';
import { ChatEventsGateway } from './chat-events.gateway';
import { ModeratorGateway } from './moderator.gateway';
import { PresenceBroadcaster } from './presence-broadcaster.service';
import { PresenceWatchGateway } from './presence-watch.gateway';
import { SessionGateway } from './session.gateway';
import { SocketDrain } from './socket-drain';
import { SocketEmitter } from './socket-emitter.service';

/**
 * The gateways of the one Socket.IO namespace, each with only what its events need. SessionGateway wires the
 * server (handshake, adapter hooks, local delivery); the others only handle their events.
 */
export const SOCKET_GATEWAYS = [SessionGateway, ChatEventsGateway, ModeratorGateway, PresenceWatchGateway];

@Module({
  imports: [AuthModule, UsersModule, FanoutModule, ChatModule, ChatAccessModule, ModerationModule, PresenceModule],
  providers: [Authenticator, ...SOCKET_GATEWAYS, SocketEmitter, OfferFanoutListener, InstanceFanoutListener, PresenceBroadcaster, SocketDrain],
  exports: [SocketEmitter, SocketDrain],
})
export class RealtimeModule {}
