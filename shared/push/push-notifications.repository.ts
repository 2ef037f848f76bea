import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PushKind } from '../contracts/queues';
import { PushStatus } from './push-notification.entity';

export interface PushRecord {
  outboxId: string;
  userId: string;
  kind: PushKind;
  status: PushStatus;
  reason?: string | null;
  httpStatus?: number | null;
  subscriptionId?: string | null;
  pushService?: string | null;
  ref?: string | null;
}

export interface PushRecordRow {
  id: string;
  at: Date;
  outbox_id: string;
  kind: string;
  status: PushStatus;
  reason: string | null;
  http_status: number | null;
  subscription_id: string | null;
  push_service: string | null;
  ref: string | null;
}

/** The notification lifecycle log: one decision per recipient of an outbox row, then one row per send outcome. */
@Injectable()
export class PushNotificationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Records the decision (queued or skipped) for each recipient of an outbox row once, in one statement; a
   * replayed job finds the first decisions and gets those back (fresh: false).
   */
  async decide(
    outboxId: string,
    kind: PushKind,
    ref: string,
    decisions: { userId: string; reason: string | null }[],
  ): Promise<Map<string, { status: PushStatus; fresh: boolean }>> {
    if (decisions.length === 0) return new Map();
    const rows: { user_id: string; status: PushStatus; fresh: boolean }[] = await this.db.query(
      `WITH d AS (
         SELECT * FROM unnest($4::uuid[], $5::varchar[]) AS d(user_id, reason)
       ), ins AS (
         INSERT INTO push_notification (outbox_id, user_id, kind, status, reason, ref)
         SELECT $1, d.user_id, $2, CASE WHEN d.reason IS NULL THEN 'queued' ELSE 'skipped' END, d.reason, $3 FROM d
         ON CONFLICT (outbox_id, user_id) WHERE subscription_id IS NULL DO NOTHING
         RETURNING user_id, status
       )
       SELECT user_id, status, true AS fresh FROM ins
       UNION ALL
       SELECT n.user_id, n.status, false FROM push_notification n JOIN d ON d.user_id = n.user_id
       WHERE n.outbox_id = $1 AND n.subscription_id IS NULL AND NOT EXISTS (SELECT 1 FROM ins WHERE ins.user_id = n.user_id)`,
      [outboxId, kind, ref, decisions.map((d) => d.userId), decisions.map((d) => d.reason)],
    );
    return new Map(rows.map((r) => [r.user_id, { status: r.status, fresh: r.fresh }]));
  }

  /** Deletes lifecycle records older than `days`, oldest first in batches; answers how many. */
  async prune(days: number): Promise<number> {
    const batch = 5000;
    let removed = 0;
    for (;;) {
      const [row]: { n: number }[] = await this.db.query(
        `WITH d AS (
           DELETE FROM push_notification WHERE id IN (
             SELECT id FROM push_notification WHERE at < now() - make_interval(days => $1::int) ORDER BY id LIMIT $2)
           RETURNING 1)
         SELECT count(*)::int AS n FROM d`,
        [days, batch],
      );
      removed += row.n;
      if (row.n < batch) return removed;
    }
  }

  /** Records a send outcome; a second 'sent' for the same outbox row and subscription is ignored (answers false). */
  async record(r: PushRecord): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `INSERT INTO push_notification (outbox_id, user_id, kind, status, reason, http_status, subscription_id, push_service, ref)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (outbox_id, subscription_id) WHERE status = 'sent' DO NOTHING RETURNING id`,
      [r.outboxId, r.userId, r.kind, r.status, r.reason ?? null, r.httpStatus ?? null, r.subscriptionId ?? null, r.pushService ?? null, r.ref ?? null],
    );
    return rows.length > 0;
  }

  /**
   * Records an accepted push and marks the subscription used (at most once an hour, to spare the writes), in one
   * statement; answers false when this outbox row had already been recorded as sent to the subscription.
   */
  async recordSent(r: Omit<PushRecord, 'status'> & { subscriptionId: string }): Promise<boolean> {
    const [row]: { n: number }[] = await this.db.query(
      `WITH rec AS (
         INSERT INTO push_notification (outbox_id, user_id, kind, status, http_status, subscription_id, push_service, ref)
         VALUES ($1, $2, $3, 'sent', $4, $5, $6, $7)
         ON CONFLICT (outbox_id, subscription_id) WHERE status = 'sent' DO NOTHING RETURNING id
       ), used AS (
         UPDATE push_subscription SET last_used_at = now() WHERE id = $5 AND last_used_at < now() - interval '1 hour' RETURNING 1
       )
       SELECT count(*)::int AS n FROM rec`,
      [r.outboxId, r.userId, r.kind, r.httpStatus ?? null, r.subscriptionId, r.pushService ?? null, r.ref ?? null],
    );
    return row.n > 0;
  }

  async userByCode(code: string): Promise<{ id: string; instance_id: string } | undefined> {
    const rows: { id: string; instance_id: string }[] = await this.db.query(`SELECT id, instance_id FROM "user" WHERE code = $1`, [code]);
    return rows[0];
  }

  /** A user's records, newest first. */
  forUser(userId: string, offset: number, limit: number): Promise<PushRecordRow[]> {
    return this.db.query(
      `SELECT id, at, outbox_id, kind, status, reason, http_status, subscription_id, push_service, ref
       FROM push_notification WHERE user_id = $1 ORDER BY id DESC OFFSET $2 LIMIT $3`,
      [userId, offset, limit],
    );
  }
}
