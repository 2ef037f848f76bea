import { Module } from '@nestjs/common';
import { Authenticator } from '../common/guards/authenticator';
import { FanoutModule } from '../fanout/fanout.module';
import { AuthModule } from '../modules/auth/auth.module';
import { ChatAccessModule } from '../modules/chat/chat-access.module';
import { ChatModule } from '../modules/chat/chat.module';
import { ModerationModule } from '../modules/moderation/moderation.module';
import { PresenceModule } from '../modules/presence/presence.module';
import { UsersModule } from '../modules/users/users.module';
import { InstanceFanoutListener } from './instance-fanout.listener';
import { OfferFanoutListener } from './offer-fanout.listener';
import { PresenceBroadcaster } from './presence-broadcaster.service';
import { RealtimeGateway } from './realtime.gateway';
import { SocketDrain } from './socket-drain';
import { SocketEmitter } from './socket-emitter.service';

@Module({
  imports: [AuthModule, UsersModule, FanoutModule, ChatModule, ChatAccessModule, ModerationModule, PresenceModule],
  providers: [
    Authenticator,
    RealtimeGateway,
    SocketEmitter,
    OfferFanoutListener,
    InstanceFanoutListener,
    PresenceBroadcaster,
    SocketDrain,
  ],
  exports: [SocketEmitter, SocketDrain],
})
export class RealtimeModule {}
