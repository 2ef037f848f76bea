import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { OfferEmailKind } from './offer-email-target';

/** The offer as its e-mail shows it, re-read just before sending. */
export interface OfferEmailFacts {
  offer_code: string;
  job_code: string;
  job_title: string | null;
  status: number;
  price_amount: string | null;
  price_currency: string | null;
  /** the other party's name */
  other: string | null;
  /** the offer has not moved since the move the e-mail is about */
  current: boolean;
  /** a timer's reminder: days left before the wait lapses, or days a payment has been due; null: the move itself */
  reminder_days: number | null;
}

/** What the e-mail about an offer move reads and writes. The rules of settings are in shared/notifications. */
@Injectable()
export class OfferEmailQueries {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Records the e-mail about one move (or one timer reminder since that move) for its recipient, due `delayMs`
   * from now, unless they switched e-mail of that kind off; a second call for the same move and reminder records
   * nothing. Answers its pending e-mail (new or recorded before), or nothing.
   */
  async record(
    move: { eventId: string; offerId: string; reminder?: { key: string; days: number } },
    userId: string,
    kind: OfferEmailKind,
    delayMs: number,
  ): Promise<{ id: string; dueAt: Date } | undefined> {
    const reminder = move.reminder ?? { key: '', days: null };
    const rows: { id: string; due_at: Date }[] = await this.db.query(
      `WITH recorded AS (
         INSERT INTO email_message (user_id, kind, covers, offer_event_id, offer_reminder, due_at)
         SELECT u.id, $2::varchar,
                jsonb_strip_nulls(jsonb_build_object('offerId', $3::text, 'eventId', $4::text, 'reminderDays', $7::int)), e.id, $6::varchar,
                now() + make_interval(secs => $5::double precision / 1000)
         FROM "user" u JOIN job_offer_event e ON e.id = $4::bigint LEFT JOIN notification_setting s ON s.user_id = u.id
         WHERE u.id = $1::uuid
           AND CASE $2::varchar WHEN 'payments' THEN COALESCE(s.email_payments, true) ELSE COALESCE(s.email_offers, true) END
         ON CONFLICT (offer_event_id, user_id, offer_reminder) WHERE offer_event_id IS NOT NULL DO NOTHING
         RETURNING id, due_at
       )
       SELECT id::text AS id, due_at FROM recorded
       UNION ALL
       SELECT id::text, due_at FROM email_message
       WHERE offer_event_id = $4::bigint AND user_id = $1::uuid AND offer_reminder = $6::varchar AND status = 'pending'`,
      [userId, kind, move.offerId, move.eventId, delayMs, reminder.key, reminder.days],
    );
    return rows[0] && { id: rows[0].id, dueAt: new Date(rows[0].due_at) };
  }

  /** The offer an e-mail is about, in the recipient's language where the job has it; nothing: the offer is gone. */
  async facts(emailId: string): Promise<OfferEmailFacts | undefined> {
    const rows: OfferEmailFacts[] = await this.db.query(
      `SELECT o.code AS offer_code, j.code AS job_code, v.title AS job_title, o.status, o.price_amount::text AS price_amount,
              o.price_currency, NULLIF(trim(concat_ws(' ', other.name, other.surname)), '') AS other,
              (SELECT max(l.id) FROM job_offer_event l WHERE l.offer_id = o.id) = em.offer_event_id AS current,
              CASE WHEN em.offer_reminder <> '' THEN COALESCE((em.covers->>'reminderDays')::int, 0) END AS reminder_days
       FROM email_message em
       JOIN "user" r ON r.id = em.user_id
       JOIN job_offer_event e ON e.id = em.offer_event_id
       JOIN job_offer o ON o.id = e.offer_id
       JOIN job j ON j.id = o.job_id
       JOIN "user" other ON other.id = CASE WHEN em.user_id = j.customer_id THEN o.provider_id ELSE j.customer_id END
       LEFT JOIN LATERAL (SELECT jv.title FROM job_version jv WHERE jv.job_id = j.id ORDER BY (jv.lang = r.lang) DESC, jv.is_default DESC LIMIT 1) v ON true
       WHERE em.id = $1`,
      [emailId],
    );
    return rows[0];
  }
}
