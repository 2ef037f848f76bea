import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ReportAction, ReportedMessage, ReportReason, ReportStatus } from '#shared/contracts/rest/reports';

export interface ReportRow {
  code: string;
  instance_id: string;
  reason: ReportReason;
  note: string | null;
  status: ReportStatus;
  action: ReportAction | null;
  created_at: Date;
  resolved_at: Date | null;
  context: ReportedMessage[];
  group_id: string | null;
  group_code: string | null;
  message_code: string | null;
  message_deleted_now: boolean | null;
  reported_id: string;
  reported_code: string;
  reported_name: string;
  reported_surname: string;
  reported_role: number;
  reported_suspended_until: Date | null;
  reporter_code: string;
  reporter_name: string;
  reporter_surname: string;
  resolver_code: string | null;
  resolver_name: string | null;
  resolver_surname: string | null;
}

/** A report closed together with the one a moderator acted on. */
export interface ResolvedReport {
  code: string;
  reason: ReportReason;
  reporterCode: string;
}

const REPORT_COLUMNS = `
  r.code, r.instance_id, r.reason, r.note, r.status, r.action, r.created_at, r.resolved_at, r.context, r.group_id,
  g.code AS group_code, m.code AS message_code, CASE WHEN m.id IS NULL THEN NULL ELSE m.deleted_at IS NOT NULL END AS message_deleted_now,
  r.reported_id, ru.code AS reported_code, ru.name AS reported_name, ru.surname AS reported_surname, ru.role AS reported_role,
  CASE WHEN ru.suspended_until > now() THEN ru.suspended_until END AS reported_suspended_until,
  rp.code AS reporter_code, rp.name AS reporter_name, rp.surname AS reporter_surname,
  rv.code AS resolver_code, rv.name AS resolver_name, rv.surname AS resolver_surname`;

const REPORT_JOINS = `
  FROM report r
  JOIN "user" ru ON ru.id = r.reported_id
  JOIN "user" rp ON rp.id = r.reporter_id
  LEFT JOIN "user" rv ON rv.id = r.resolved_by
  LEFT JOIN chat_group g ON g.id = r.group_id
  LEFT JOIN chat_message m ON m.id = r.message_id`;

const UNIQUE_VIOLATION = '23505';

/** Reports: stored with the context of a reported message, listed for moderators in scope, resolved once. */
@Injectable()
export class ReportsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A user of this instance by code. */
  async userInInstance(instanceId: string, code: string): Promise<{ id: string } | undefined> {
    const rows: { id: string }[] = await this.db.query(`SELECT id FROM "user" WHERE code = $1 AND instance_id = $2`, [code, instanceId]);
    return rows[0];
  }

  /** A message of this group by code: its id, seq, author and whether it is deleted. */
  async messageByCode(groupId: string, code: string): Promise<{ id: string; seq: number; authorId: string | null; deleted: boolean } | undefined> {
    const rows: { id: string; seq: number; authorId: string | null; deleted: boolean }[] = await this.db.query(
      `SELECT id, seq::int AS seq, author_id AS "authorId", deleted_at IS NOT NULL AS deleted FROM chat_message WHERE group_id = $1 AND code = $2`,
      [groupId, code],
    );
    return rows[0];
  }

  /** The message and up to `eachSide` messages before and after it, oldest first, as they are now. */
  context(groupId: string, seq: number, eachSide: number): Promise<(ReportedMessage & { authorId: string | null })[]> {
    return this.db.query(
      `SELECT m.code, m.seq::int AS seq, m.author_id AS "authorId", u.code AS "userCode",
              CASE WHEN u.id IS NULL THEN NULL ELSE trim(u.name || ' ' || u.surname) END AS "userName",
              CASE WHEN m.deleted_at IS NULL THEN m.text ELSE '' END AS message,
              to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt", m.deleted_at IS NOT NULL AS deleted,
              m.offer_note AS "offerNote"
       FROM chat_message m LEFT JOIN "user" u ON u.id = m.author_id
       WHERE m.group_id = $1 AND m.seq BETWEEN $2::bigint - $3 AND $2::bigint + $3 ORDER BY m.seq`,
      [groupId, seq, eachSide],
    );
  }

  /** Stores a report; false when the reporter already reported this message (or has this person's report open). */
  async insert(report: {
    code: string;
    instanceId: string;
    reporterId: string;
    reportedId: string;
    groupId: string | null;
    messageId: string | null;
    reason: ReportReason;
    note: string | null;
    context: ReportedMessage[];
  }): Promise<boolean> {
    try {
      await this.db.query(
        `INSERT INTO report (code, instance_id, reporter_id, reported_id, group_id, message_id, reason, note, context)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          report.code,
          report.instanceId,
          report.reporterId,
          report.reportedId,
          report.groupId,
          report.messageId,
          report.reason,
          report.note,
          JSON.stringify(report.context),
        ],
      );
      return true;
    } catch (err) {
      if ((err as { code?: string }).code === UNIQUE_VIOLATION) return false;
      throw err;
    }
  }

  async byCode(code: string): Promise<ReportRow | undefined> {
    const rows: ReportRow[] = await this.db.query(`SELECT ${REPORT_COLUMNS} ${REPORT_JOINS} WHERE r.code = $1`, [code]);
    return rows[0];
  }

  /** The reporter's own reports, newest first. */
  mine(reporterId: string, limit: number): Promise<ReportRow[]> {
    return this.db.query(`SELECT ${REPORT_COLUMNS} ${REPORT_JOINS} WHERE r.reporter_id = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT $2`, [
      reporterId,
      limit,
    ]);
  }

  /** The queue: open reports oldest first (first come, first judged), resolved ones newest first; `instanceId` null is every instance. */
  queue(instanceId: string | null, status: ReportStatus, offset: number, limit: number): Promise<ReportRow[]> {
    const order = status === 'open' ? 'r.created_at ASC, r.id ASC' : 'r.resolved_at DESC, r.id DESC';
    return this.db.query(
      `SELECT ${REPORT_COLUMNS} ${REPORT_JOINS}
       WHERE r.status = $2 AND ($1::uuid IS NULL OR r.instance_id = $1) ORDER BY ${order} OFFSET $3 LIMIT $4`,
      [instanceId, status, offset, limit],
    );
  }

  /**
   * Closes an open report and every other open report of the same message (or, for a report of a person, the
   * same person's open person reports) with the moderator's action. The rows are locked in id order, so two
   * moderators acting on reports of one pile at once cannot deadlock and only one of them claims the pile.
   * Answers the reports closed, oldest first; empty (or without `code`) when it was resolved meanwhile by someone else.
   */
  /**
   * The warnings a user was given, newest first: one per pile a moderator warned them through (the pile's reports
   * share the moderator and the resolution time), named by the pile's oldest report as the live warning is.
   */
  warningsOf(userId: string, limit: number): Promise<{ code: string; reason: ReportReason; at: Date }[]> {
    return this.db.query(
      `SELECT code, reason, at FROM (
         SELECT DISTINCT ON (resolved_by, resolved_at) code, reason, resolved_at AS at, id FROM report
         WHERE reported_id = $1 AND status = 'resolved' AND action = 'warn'
         ORDER BY resolved_by, resolved_at, id) w
       ORDER BY at DESC, id DESC LIMIT $2`,
      [userId, limit],
    );
  }

  resolvePile(code: string, action: ReportAction, moderatorId: string): Promise<ResolvedReport[]> {
    return this.db.query(
      `WITH target AS (SELECT message_id, reported_id FROM report WHERE code = $1),
            pile AS (SELECT r.id FROM report r, target t
                     WHERE r.status = 'open'
                       AND (r.code = $1
                            OR (t.message_id IS NOT NULL AND r.message_id = t.message_id)
                            OR (t.message_id IS NULL AND r.message_id IS NULL AND r.reported_id = t.reported_id))
                     ORDER BY r.id FOR UPDATE OF r),
            u AS (UPDATE report SET status = 'resolved', action = $2, resolved_by = $3, resolved_at = now()
                  WHERE id IN (SELECT id FROM pile) AND status = 'open' RETURNING id, code, reason, reporter_id)
       SELECT u.code, u.reason, rp.code AS "reporterCode" FROM u JOIN "user" rp ON rp.id = u.reporter_id ORDER BY u.id`,
      [code, action, moderatorId],
    );
  }

  /** A user by code with their instance and current suspension (null when none or over). */
  async suspensionOf(code: string): Promise<{ id: string; instanceId: string; name: string; surname: string; until: Date | null } | undefined> {
    const rows: { id: string; instanceId: string; name: string; surname: string; until: Date | null }[] = await this.db.query(
      `SELECT id, instance_id AS "instanceId", name, surname, CASE WHEN suspended_until > now() THEN suspended_until END AS until
       FROM "user" WHERE code = $1`,
      [code],
    );
    return rows[0];
  }

  /** Ends a running suspension now; false when there was none (ended or lifted meanwhile). */
  async unsuspend(userId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `WITH u AS (UPDATE "user" SET suspended_until = NULL WHERE id = $1 AND suspended_until > now() RETURNING 1) SELECT * FROM u`,
      [userId],
    );
    return rows.length > 0;
  }

  async suspend(userId: string, days: number): Promise<void> {
    await this.db.query(`UPDATE "user" SET suspended_until = now() + make_interval(days => $2) WHERE id = $1`, [userId, days]);
  }
}
