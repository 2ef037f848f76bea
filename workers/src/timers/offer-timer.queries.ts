import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { OfferStatus, OfferTimerDue } from '#shared/contracts/offers';

/** An offer as its timers see it: where it waits since when, its instance's settings, and the steps of this wait already applied. */
export interface OfferWait {
  id: string;
  status: OfferStatus;
  version: number;
  since: Date;
  offer_timers: unknown;
  fired: string[];
}

/** What the worker reads about offer timers (it never writes offers: the servers apply due timers). */
@Injectable()
export class OfferTimerQueries {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async wait(offerId: string): Promise<OfferWait | undefined> {
    const rows: OfferWait[] = await this.db.query(
      `SELECT o.id, o.status, o.version, o.updated_at AS since, i.offer_timers,
              ARRAY(SELECT f.key FROM offer_timer_fired f WHERE f.offer_id = o.id AND f.version = o.version) AS fired
       FROM job_offer o JOIN job j ON j.id = o.job_id JOIN instance i ON i.id = j.instance_id
       WHERE o.id = $1`,
      [offerId],
    );
    return rows[0];
  }

  /**
   * Makes this job the offer's pending timer if the offer is still in this version; answers the job it replaces
   * (null: none), or undefined when the offer moved on meanwhile (a newer move sets its own timer).
   */
  async replaceTimerJob(offerId: string, version: number, jobId: string | null): Promise<string | null | undefined> {
    const rows: { previous: string | null }[] = await this.db.query(
      `WITH old AS (SELECT id, timer_job_id FROM job_offer WHERE id = $1 AND version = $2 FOR UPDATE),
            set AS (UPDATE job_offer o SET timer_job_id = $3 FROM old WHERE o.id = old.id RETURNING old.timer_job_id AS previous)
       SELECT previous FROM set`,
      [offerId, version, jobId],
    );
    return rows.length ? rows[0].previous : undefined;
  }

  /** A page of offers that may wait on a timer, by id, after `afterId`: their pending timer job as recorded. */
  timedOffers(statuses: readonly OfferStatus[], afterId: string, limit: number): Promise<{ id: string; timer_job_id: string | null }[]> {
    return this.db.query(`SELECT id::text, timer_job_id FROM job_offer WHERE status = ANY($1::smallint[]) AND id > $2::bigint ORDER BY id LIMIT $3`, [
      statuses,
      afterId,
      limit,
    ]);
  }

  /** Whether the step was applied, or the offer has moved on since the timer was set (then the timer does nothing). */
  async state(due: OfferTimerDue): Promise<'applied' | 'moved' | 'waiting'> {
    const rows: { applied: boolean; moved: boolean }[] = await this.db.query(
      `SELECT EXISTS (SELECT 1 FROM offer_timer_fired WHERE offer_id = $1 AND version = $2 AND key = $4) AS applied,
              NOT EXISTS (SELECT 1 FROM job_offer WHERE id = $1 AND version = $2 AND status = $3) AS moved`,
      [due.offerId, due.version, due.status, due.key],
    );
    return rows[0].applied ? 'applied' : rows[0].moved ? 'moved' : 'waiting';
  }
}
