import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { OfferStatus } from '#shared/contracts/offers';
import { ReviewAuthorRole } from '#shared/contracts/rest/reviews';

/** A review joined with what its answers name: the offer, the job and both people. */
export interface ReviewRow {
  id: string;
  code: string;
  offer_id: string;
  instance_id: string;
  author_id: string;
  subject_id: string;
  author_role: ReviewAuthorRole;
  rating: number;
  text: string;
  created_at: Date;
  window_ends_at: Date;
  published_at: Date | null;
  reply_text: string | null;
  replied_at: Date | null;
  offer_code: string;
  job_code: string;
  author_code: string;
  author_name: string;
  author_surname: string;
  subject_code: string;
  subject_name: string;
  subject_surname: string;
}

/** What decides whether a closed offer may be reviewed, and until when. */
export interface DealFacts {
  /** when the offer reached Closed; null if it never did */
  closedAt: Date | null;
  /** it closed with a settled payment: a deal, not a withdrawal or a rejection */
  settled: boolean;
  /** the instance's own window, null for the configured default */
  windowDays: number | null;
}

export interface NewReview {
  code: string;
  offerId: string;
  authorId: string;
  subjectId: string;
  authorRole: ReviewAuthorRole;
  rating: number;
  text: string;
  at: Date;
  windowEndsAt: Date;
}

const REVIEW_SELECT = `
  SELECT r.id, r.code, r.offer_id, j.instance_id, r.author_id, r.subject_id, r.author_role, r.rating, r.text, r.created_at,
         r.window_ends_at, r.published_at, r.reply_text, r.replied_at, o.code AS offer_code, j.code AS job_code,
         a.code AS author_code, a.name AS author_name, a.surname AS author_surname,
         s.code AS subject_code, s.name AS subject_name, s.surname AS subject_surname
  FROM offer_review r
  JOIN job_offer o ON o.id = r.offer_id
  JOIN job j ON j.id = o.job_id
  JOIN "user" a ON a.id = r.author_id
  JOIN "user" s ON s.id = r.subject_id`;

/** Public reviews, as SQL over `r` with the caller's clock as $NOW: both wrote, or the window has ended. */
/** An UPDATE's count of changed rows (TypeORM answers an UPDATE with [rows, count]). */
async function changed(tx: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const [, count]: [unknown[], number] = await tx.query(sql, params);
  return count;
}

const PUBLIC = (now: string) => `(r.published_at IS NOT NULL OR r.window_ends_at <= ${now})`;

/** Reviews of deals. Times that decide publication come from the caller's clock, never the database's. */
@Injectable()
export class ReviewsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Holds the offer's row until commit, so the two parties' reviews (and an edit) of one deal queue. */
  async lockOffer(tx: EntityManager, offerId: string): Promise<void> {
    await tx.query(`SELECT 1 FROM job_offer WHERE id = $1 FOR NO KEY UPDATE`, [offerId]);
  }

  async dealFacts(offerId: string, tx: EntityManager = this.db.manager): Promise<DealFacts> {
    const [row]: { closed_at: Date | null; settled: boolean; window_days: number | null }[] = await tx.query(
      `SELECT (SELECT max(e.at) FROM job_offer_event e WHERE e.offer_id = o.id AND e.to_status = $2) AS closed_at,
              EXISTS (SELECT 1 FROM payment p WHERE p.offer_id = o.id AND p.status = 'succeeded') AS settled,
              i.review_window_days AS window_days
       FROM job_offer o JOIN job j ON j.id = o.job_id JOIN instance i ON i.id = j.instance_id
       WHERE o.id = $1`,
      [offerId, OfferStatus.Closed],
    );
    return { closedAt: row?.closed_at ?? null, settled: row?.settled ?? false, windowDays: row?.window_days ?? null };
  }

  forOffer(offerId: string, tx: EntityManager = this.db.manager): Promise<ReviewRow[]> {
    return tx.query(`${REVIEW_SELECT} WHERE r.offer_id = $1 ORDER BY r.id`, [offerId]);
  }

  async byCode(code: string): Promise<ReviewRow | null> {
    const [row]: ReviewRow[] = await this.db.query(`${REVIEW_SELECT} WHERE r.code = $1`, [code]);
    return row ?? null;
  }

  /** The new review's id, or null when the author already reviewed this deal. */
  async insert(tx: EntityManager, r: NewReview): Promise<string | null> {
    const rows: { id: string }[] = await tx.query(
      `INSERT INTO offer_review (code, offer_id, author_id, subject_id, author_role, rating, text, created_at, updated_at, window_ends_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9)
       ON CONFLICT (offer_id, author_id) DO NOTHING RETURNING id`,
      [r.code, r.offerId, r.authorId, r.subjectId, r.authorRole, r.rating, r.text, r.at, r.windowEndsAt],
    );
    return rows[0]?.id ?? null;
  }

  /** Changes a review nobody else sees yet; false once it is public. */
  async rewrite(tx: EntityManager, id: string, rating: number, text: string, now: Date): Promise<boolean> {
    const n = await changed(tx, `UPDATE offer_review r SET rating = $2, text = $3, updated_at = $4 WHERE r.id = $1 AND NOT ${PUBLIC('$4')}`, [
      id,
      rating,
      text,
      now,
    ]);
    return n > 0;
  }

  /** Publishes the deal's hidden reviews at `at`; how many it published. */
  async publish(tx: EntityManager, offerId: string, at: Date): Promise<number> {
    return changed(tx, `UPDATE offer_review SET published_at = $2 WHERE offer_id = $1 AND published_at IS NULL`, [offerId, at]);
  }

  /**
   * Stamps the reviews whose window has ended as published at the window's end (they were public from then on
   * already); how many it stamped. Exactly one caller stamps each review, so its chat note is posted once.
   */
  async stampEndedWindow(offerId: string, now: Date): Promise<number> {
    return changed(
      this.db.manager,
      `UPDATE offer_review SET published_at = window_ends_at WHERE offer_id = $1 AND published_at IS NULL AND window_ends_at <= $2`,
      [offerId, now],
    );
  }

  /** The reviewed party's one reply; false if there is one already. */
  async reply(id: string, text: string, now: Date): Promise<boolean> {
    return (
      (await changed(this.db.manager, `UPDATE offer_review SET reply_text = $2, replied_at = $3 WHERE id = $1 AND reply_text IS NULL`, [id, text, now])) > 0
    );
  }

  /** Public reviews about a user, latest published first. */
  publicAbout(subjectId: string, now: Date, offset: number, limit: number): Promise<ReviewRow[]> {
    return this.db.query(
      `${REVIEW_SELECT} WHERE r.subject_id = $1 AND ${PUBLIC('$2')}
       ORDER BY coalesce(r.published_at, r.window_ends_at) DESC, r.id DESC OFFSET $3 LIMIT $4`,
      [subjectId, now, offset, limit],
    );
  }

  /** Mean and number of the public ratings about a user (the subject index serves it). */
  async ratingOf(subjectId: string, now: Date): Promise<{ average: number | null; count: number }> {
    const [row]: { average: string | null; count: number }[] = await this.db.query(
      `SELECT avg(r.rating)::numeric(3, 2)::text AS average, count(*)::int AS count FROM offer_review r WHERE r.subject_id = $1 AND ${PUBLIC('$2')}`,
      [subjectId, now],
    );
    return { average: row.average === null ? null : Number(row.average), count: row.count };
  }

  async instanceWindowDays(instanceId: string): Promise<number | null> {
    const [row]: { d: number | null }[] = await this.db.query(`SELECT review_window_days AS d FROM instance WHERE id = $1`, [instanceId]);
    return row?.d ?? null;
  }

  async setInstanceWindowDays(instanceId: string, days: number): Promise<void> {
    await this.db.query(`UPDATE instance SET review_window_days = $2 WHERE id = $1`, [instanceId, days]);
  }
}
