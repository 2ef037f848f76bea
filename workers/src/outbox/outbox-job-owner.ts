import { JobName } from '#shared/contracts/queues';

/** An outbox row as the relay reads it. */
export interface OutboxRow {
  id: string;
  topic: string;
  payload: Record<string, unknown>;
  created_at: Date;
  /** the trace context of the request or socket event that wrote it; null while tracing is off */
  traceparent: string | null;
}

/** Runs SQL in the relay's transaction, while it holds the rows' locks. */
export interface OutboxQueryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** Rows that need no job, and what to do once their dispatch has committed. */
export interface UnneededRows {
  rowIds: Set<string>;
  afterDispatch(): Promise<void>;
}

/**
 * What the owner of an outbox job tells the relay, which never looks inside a row itself: which rows need no
 * job at all (the relay marks them dispatched like the others), and how long a job waits before it runs.
 */
export interface OutboxJobOwner {
  readonly job: JobName;
  unneeded(rows: OutboxRow[], db: OutboxQueryable): Promise<UnneededRows>;
  delayMs(row: OutboxRow): number;
  /** Attempts and exponential back-off of its jobs; unset: PUSH_ATTEMPTS and PUSH_BACKOFF_MS. */
  retry?(): { attempts: number; backoffMs: number };
}

/** The worker's job owners (a list provider), injected into the relay. */
export const OUTBOX_JOB_OWNERS = Symbol('OUTBOX_JOB_OWNERS');
