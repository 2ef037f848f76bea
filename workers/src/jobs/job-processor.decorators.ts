import { Processor } from '@nestjs/bullmq';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import { JobName, QueueName } from '../../../server/src/contracts/queues';

export const JOB_PROCESSOR_QUEUE = 'parley:job-processor-queue';
export const JOB_HANDLER = 'parley:job-handler';

/**
 * The one class that processes a queue. Its BullMQ worker does not start by itself: JobRunner starts it
 * after checking the handlers and setting the configured concurrency.
 */
export const JobProcessor = (queue: QueueName): ClassDecorator =>
  applyDecorators(Processor(queue, { autorun: false }), SetMetadata(JOB_PROCESSOR_QUEUE, queue));

/** Marks the method that handles one job name; it gets (payload, job). */
export const OnJob = (name: JobName): MethodDecorator => SetMetadata(JOB_HANDLER, name);
