import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../common/events/domain-events';
import { OfferStatusChangedEvent } from '#shared/contracts/events';
import { SocketEmitter } from './socket-emitter.service';

/** Fans committed offer moves out as `offer:status` to both parties (and moderators watching the offer's chat). */
@Injectable()
export class OfferFanoutListener implements OnModuleInit, OnModuleDestroy {
  private unsubscribe?: () => void;

  constructor(
    private readonly events: DomainEvents,
    private readonly emitter: SocketEmitter,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.events.on('offer.status-changed', (e) => this.statusChanged(e));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  private statusChanged(e: OfferStatusChangedEvent): void {
    this.emitter.toUsers(e.participantCodes, e.groupCode || null, 'offer:status', {
      jobCode: e.jobCode,
      offerCode: e.offerCode,
      status: e.status,
      previousStatus: e.previousStatus,
      actorCode: e.actorCode,
      at: e.at,
      ...e.terms,
    });
  }
}
