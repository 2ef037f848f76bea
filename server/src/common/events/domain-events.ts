import { Injectable, Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import { DomainEventMap } from '#shared/contracts/events';

type Handler<K extends keyof DomainEventMap> = (event: DomainEventMap[K]) => void | Promise<void>;

/**
 * In-process, typed domain events. Emit only after commit; a failing listener is logged and never
 * reaches the code that emitted, which may await the listeners or not.
 */
@Injectable()
export class DomainEvents {
  private readonly logger = new Logger(DomainEvents.name);
  private readonly emitter = new EventEmitter({ captureRejections: false });

  constructor() {
    this.emitter.setMaxListeners(50);
  }

  /** Calls every listener now; the promise settles when they all have (callers may ignore it). */
  emit<K extends keyof DomainEventMap>(name: K, event: DomainEventMap[K]): Promise<void> {
    const running: Promise<void>[] = [];
    for (const listener of this.emitter.listeners(name) as Handler<K>[]) {
      try {
        const result = listener(event);
        if (result instanceof Promise) running.push(result.catch((err: unknown) => this.fail(name, err)));
      } catch (err) {
        this.fail(name, err);
      }
    }
    return Promise.all(running).then(() => undefined);
  }

  on<K extends keyof DomainEventMap>(name: K, handler: Handler<K>): () => void {
    this.emitter.on(name, handler);
    return () => this.emitter.off(name, handler);
  }

  private fail(name: string, err: unknown): void {
    this.logger.error({ err }, `listener of ${name} failed`);
  }
}
