import { WorkerHost } from '@nestjs/bullmq';
import { MetadataScanner } from '@nestjs/core';
import { Job, UnrecoverableError } from 'bullmq';
import { contextOf, inSpan, SpanKind, tracingStarted } from '#shared/telemetry/trace-context';
import { JOB_HANDLER } from './job-processor.decorators';

const scanner = new MetadataScanner();

/** The @OnJob methods of an instance's class, by job name (several per name only when the code is wrong). */
export function jobHandlersOf(instance: object): Array<{ job: string; method: string }> {
  const proto = Object.getPrototypeOf(instance) as Record<string, object> | null;
  if (!proto) return [];
  const found: Array<{ job: string; method: string }> = [];
  for (const method of scanner.getAllMethodNames(proto)) {
    const job = Reflect.getMetadata(JOB_HANDLER, proto[method]) as string | undefined;
    if (job) found.push({ job, method });
  }
  return found;
}

/** Base of every @JobProcessor: sends each job to the @OnJob method for its name, as (payload, job, lock token). */
export abstract class JobProcessorHost extends WorkerHost {
  private methods?: Map<string, string>;

  /** Jobs this queue's worker runs at once; undefined: WORKER_CONCURRENCY. */
  concurrency(): number | undefined {
    return undefined;
  }

  async process(job: Job, token?: string): Promise<unknown> {
    this.methods ??= new Map(jobHandlersOf(this).map(({ job: name, method }) => [name, method]));
    const method = this.methods.get(job.name);
    // The boot check makes this unreachable for known names; a stray job must not be retried forever.
    if (!method) throw new UnrecoverableError(`no handler for job "${job.name}" on queue "${job.queueName}"`);
    const handler = (this as unknown as Record<string, (payload: unknown, job: Job, token?: string) => Promise<unknown>>)[method];
    if (!tracingStarted()) return handler.call(this, job.data, job, token);
    // A child of the span that queued the job (its data's traceparent), else a trace of its own.
    return inSpan(
      `job ${job.name}`,
      {
        kind: SpanKind.CONSUMER,
        attributes: {
          'messaging.system': 'bullmq',
          'messaging.destination.name': job.queueName,
          'parley.job.id': String(job.id),
          'parley.job.attempt': job.attemptsMade + 1,
        },
      },
      contextOf((job.data as { traceparent?: unknown } | null)?.traceparent),
      () => handler.call(this, job.data, job, token),
    );
  }
}
