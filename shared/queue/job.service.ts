import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Queue } from 'bullmq';
import { JOB_QUEUE, JobName, JobPayloads, QueueName } from '../contracts/queues';
import { withTraceparent } from '../telemetry/trace-context';

export interface AddJobOptions {
  /** Dedupe key: a second add with the same id is a no-op while the first job is kept. No ':' and not a bare integer. */
  jobId?: string;
  /** Milliseconds to wait before the job may run. */
  delay?: number;
}

/** The typed way to put work on a queue: the job name decides the queue and the payload type. */
@Injectable()
export class JobService implements OnModuleInit {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    for (const name of Object.values(QueueName)) {
      this.queues.set(name, this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }));
    }
  }

  /** Adds one job and answers its id. */
  async add<N extends JobName>(name: N, payload: JobPayloads[N], options: AddJobOptions = {}): Promise<string> {
    // While tracing, the job continues the trace of the span that queued it (TraceCarrier).
    const job = await this.queue(name).add(name, withTraceparent(payload), { jobId: options.jobId, delay: options.delay });
    return job.id as string;
  }

  /** Creates or updates a repeating job (one scheduler per job name, shared by every worker replica). */
  async schedule<N extends JobName>(name: N, everyMs: number, payload: JobPayloads[N]): Promise<void> {
    await this.queue(name).upsertJobScheduler(name, { every: everyMs }, { name, data: payload });
  }

  /** The queue a job name belongs to (for tests and admin tools that inspect jobs). */
  queue(name: JobName): Queue {
    const queue = this.queues.get(JOB_QUEUE[name]);
    if (!queue) throw new Error(`queue ${JOB_QUEUE[name]} is not registered`);
    return queue;
  }
}
