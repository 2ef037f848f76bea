import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { checkJobHandlers, FoundHandler, FoundProcessor } from './job-handler.check';
import { JOB_PROCESSOR_QUEUE } from './job-processor.decorators';
import { JobProcessorHost, jobHandlersOf } from './job-processor.host';

/** Checks the handlers against the contract, then starts every queue's worker; stops them before connections close. */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(JobRunner.name);
  private processors: JobProcessorHost[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const processors = this.checkHandlers();
    for (const host of processors) {
      host.worker.concurrency = host.concurrency() ?? this.config.WORKER_CONCURRENCY;
      host.worker.run().catch((err: unknown) => this.logger.error({ err }, `worker of queue ${host.worker.name} stopped`));
    }
    this.processors = processors;
    this.logger.log(`processing ${processors.map((p) => `${p.worker.name} (concurrency ${p.worker.concurrency})`).join(', ')}`);
  }

  /** Finds every @JobProcessor and @OnJob among the providers and fails unless they match the contract. */
  checkHandlers(): JobProcessorHost[] {
    const processors: FoundProcessor[] = [];
    const handlers: FoundHandler[] = [];
    const hosts: JobProcessorHost[] = [];
    for (const wrapper of this.discovery.getProviders()) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object') continue;
      const owner = instance.constructor.name;
      const queue = Reflect.getMetadata(JOB_PROCESSOR_QUEUE, instance.constructor) as string | undefined;
      if (queue && instance instanceof JobProcessorHost) {
        processors.push({ owner, queue });
        hosts.push(instance);
      }
      for (const { job } of jobHandlersOf(instance)) handlers.push({ owner, job, queue });
    }
    checkJobHandlers(processors, handlers);
    return hosts;
  }

  /** Lets in-flight jobs finish while Postgres and Redis are still open (close() waits for them). */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.processors.map((p) => p.worker.close()));
  }
}
