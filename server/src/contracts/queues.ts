/** BullMQ queues. A queue groups jobs that share a worker pool and its concurrency. */
export enum QueueName {
  Maintenance = 'maintenance',
}

/** Job names: one handler each in the worker, checked at boot. */
export enum JobName {
  Heartbeat = 'heartbeat',
}

/** The payload each job carries: ids and small facts only; handlers re-read state. */
export interface JobPayloads {
  [JobName.Heartbeat]: Record<string, never>;
}

/** The queue each job goes to. */
export const JOB_QUEUE: { readonly [N in JobName]: QueueName } = {
  [JobName.Heartbeat]: QueueName.Maintenance,
};

/** Parts of the Redis key (through RedisService.key) where the worker pool leaves its last heartbeat. */
export const WORKER_HEARTBEAT_KEY = ['worker', 'heartbeat'] as const;

/** What the heartbeat key holds, as JSON; the key expires after three heartbeat intervals. */
export interface WorkerHeartbeat {
  at: string;
  pid: number;
  host: string;
}
