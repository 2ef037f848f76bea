import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { DomainEventMap } from '../../contracts/events';

type Handler<K extends keyof DomainEventMap> = (event: DomainEventMap[K]) => void | Promise<void>;

/**
 * In-process, typed domain events. Emit only after commit; a failing listener is logged and never
 * reaches the code that emitted.
 */
@Injectable()
export class DomainEvents {
  private readonly logger = new Logger(DomainEvents.name);
  private readonly emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    this.emitter.setMaxListeners(50);
  }

  emit<K extends keyof DomainEventMap>(name: K, event: DomainEventMap[K]): void {
    for (const listener of this.emitter.listeners(name) as Handler<K>[]) {
      try {
        const result = listener(event);
        if (result instanceof Promise) result.catch((err: unknown) => this.fail(name, err));
      } catch (err) {
        this.fail(name, err);
      }
    }
  }

  on<K extends keyof DomainEventMap>(name: K, handler: Handler<K>): () => void {
    this.emitter.on(name, handler);
    return () => this.emitter.off(name, handler);
  }

  private fail(name: string, err: unknown): void {
    this.logger.error({ err }, `listener of ${name} failed`);
  }
}
