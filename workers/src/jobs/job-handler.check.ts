import { JOB_QUEUE } from '#shared/contracts/queues';

export interface FoundProcessor {
  owner: string;
  queue: string;
}

export interface FoundHandler {
  owner: string;
  job: string;
  /** The queue of the @JobProcessor class the handler sits on; undefined when it is on any other class. */
  queue: string | undefined;
}

export class JobHandlerError extends Error {}

/**
 * Every job name of the contract must have exactly one handler, on the processor of the job's queue, and
 * each queue at most one processor (BullMQ hands a queue's jobs to any of its workers). Throws naming every problem.
 */
export function checkJobHandlers(processors: FoundProcessor[], handlers: FoundHandler[], jobQueues: Readonly<Record<string, string>> = JOB_QUEUE): void {
  const problems: string[] = [];
  const queues = new Set(processors.map((p) => p.queue));
  for (const queue of queues) {
    const owners = processors.filter((p) => p.queue === queue).map((p) => p.owner);
    if (owners.length > 1) problems.push(`queue "${queue}" has ${owners.length} processors: ${owners.join(', ')}`);
  }
  for (const [job, queue] of Object.entries(jobQueues)) {
    const mine = handlers.filter((h) => h.job === job);
    if (mine.length === 0) problems.push(`job "${job}" has no handler (expected an @OnJob on the processor of queue "${queue}")`);
    if (mine.length > 1) problems.push(`job "${job}" has ${mine.length} handlers: ${mine.map((h) => h.owner).join(', ')}`);
    for (const h of mine) {
      if (h.queue === undefined) problems.push(`job "${job}": ${h.owner} is not a @JobProcessor, so its handler never runs`);
      else if (h.queue !== queue) problems.push(`job "${job}" goes to queue "${queue}" but ${h.owner} processes "${h.queue}"`);
    }
  }
  for (const h of handlers) {
    if (!(h.job in jobQueues)) problems.push(`${h.owner} handles "${h.job}", which is not a job name`);
  }
  if (problems.length) throw new JobHandlerError(`Job handlers do not match the contract:\n  ${problems.join('\n  ')}`);
}
