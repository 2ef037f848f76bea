import { Module } from '@nestjs/common';
import { Authenticator } from '../common/guards/authenticator';
import { AuthModule } from '../modules/auth/auth.module';
import { ChatAccessModule } from '../modules/chat/chat-access.module';
import { ChatModule } from '../modules/chat/chat.module';
import { ModerationModule } from '../modules/moderation/moderation.module';
import { PresenceModule } from '../modules/presence/presence.module';
import { UsersModule } from '../modules/users/users.module';
import { ChatFanoutListener } from './chat-fanout.listener';
import { FanoutNode } from './fanout-node';
import { InstanceFanoutListener } from './instance-fanout.listener';
import { OfferFanoutListener } from './offer-fanout.listener';
import { OrderedFanoutService } from './ordered-fanout.service';
import { PresenceBroadcaster } from './presence-broadcaster.service';
import { RealtimeGateway } from './realtime.gateway';
import { SocketDrain } from './socket-drain';
import { SocketEmitter } from './socket-emitter.service';
import { TranslationReadyListener } from './translation-ready.listener';

@Module({
  imports: [AuthModule, UsersModule, ChatModule, ChatAccessModule, ModerationModule, PresenceModule],
  providers: [
    Authenticator,
    RealtimeGateway,
    SocketEmitter,
    ChatFanoutListener,
    OfferFanoutListener,
    InstanceFanoutListener,
    PresenceBroadcaster,
    OrderedFanoutService,
    FanoutNode,
    TranslationReadyListener,
    SocketDrain,
  ],
  exports: [SocketEmitter, SocketDrain],
})
export class RealtimeModule {}
