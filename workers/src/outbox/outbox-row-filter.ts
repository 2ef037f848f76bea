import { JobName } from '#shared/contracts/queues';

/** An outbox row as the relay reads it. */
export interface OutboxRow {
  id: string;
  topic: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** Runs SQL in the relay's transaction, while it holds the rows' locks. */
export interface OutboxQueryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** What a filter answers: the rows that need no job, and what to do once their dispatch has committed. */
export interface UnneededRows {
  rowIds: Set<string>;
  afterDispatch(): Promise<void>;
}

/**
 * Lets the owner of a job say, before the relay queues it, that a row needs no job at all; the relay marks it
 * dispatched like the others. The relay itself never looks inside a row: deciding is the job owner's.
 */
export interface OutboxRowFilter {
  readonly job: JobName;
  unneeded(rows: OutboxRow[], db: OutboxQueryable): Promise<UnneededRows>;
}

/** The worker's filters (a list provider), injected into the relay. */
export const OUTBOX_ROW_FILTERS = Symbol('OUTBOX_ROW_FILTERS');
