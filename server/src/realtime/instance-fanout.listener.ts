import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DomainEvents } from '../common/events/domain-events';
import { SocketEmitter } from './socket-emitter.service';

/**
 * Fans committed changes that every user of an instance may see out to that instance's room: a job saved by
 * its customer (`job:updated`) and the instance's new look (`instance:updated`). Another instance's room never
 * hears them. These need no order against chat messages, so they go straight through the adapter.
 */
@Injectable()
export class InstanceFanoutListener implements OnModuleInit, OnModuleDestroy {
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    private readonly events: DomainEvents,
    private readonly emitter: SocketEmitter,
  ) {}

  onModuleInit(): void {
    this.unsubscribe.push(
      this.events.on('job.updated', (e) => this.emitter.toInstance(e.instanceId, 'job:updated', e.job)),
      this.events.on('instance.updated', (e) => this.emitter.toInstance(e.instanceId, 'instance:updated', e.instance)),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe.forEach((stop) => stop());
  }
}
