import { Processor } from '@nestjs/bullmq';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import { JobName, QueueName } from '#shared/contracts/queues';

export const JOB_PROCESSOR_QUEUE = 'parley:job-processor-queue';
export const JOB_HANDLER = 'parley:job-handler';

/** @nestjs/bullmq's metadata key for a @Processor's worker options (WORKER_METADATA, not exported from its index). */
const BULLMQ_WORKER_METADATA = 'bullmq:worker_metadata';

/**
 * The one class that processes a queue. Its BullMQ worker does not start by itself: JobRunner starts it
 * after checking the handlers and setting the configured concurrency.
 */
export const JobProcessor = (queue: QueueName): ClassDecorator =>
  applyDecorators(Processor(queue, { autorun: false }), SetMetadata(JOB_PROCESSOR_QUEUE, queue));

/** Marks the method that handles one job name; it gets (payload, job). */
export const OnJob = (name: JobName): MethodDecorator => SetMetadata(JOB_HANDLER, name);

/**
 * Worker options that come from the config (lock duration and stalled-job check, so a crashed worker's jobs
 * are taken over): called from a processor's constructor, which runs before @nestjs/bullmq creates its worker.
 */
export function configureWorker(processor: abstract new (...args: never[]) => unknown, options: WorkerOptionsFromConfig): void {
  const current = (Reflect.getMetadata(BULLMQ_WORKER_METADATA, processor) as object | undefined) ?? {};
  Reflect.defineMetadata(BULLMQ_WORKER_METADATA, { ...current, ...options }, processor);
}

export interface WorkerOptionsFromConfig {
  lockDuration: number;
  stalledInterval: number;
  maxStalledCount?: number;
}
