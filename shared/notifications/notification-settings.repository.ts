import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { NotificationSettingsResponse } from '../contracts/rest/notifications';
import { defaultSettings, minutesOf, UserNotificationSettings } from './notification-settings';

interface SettingRow {
  user_id: string;
  timezone: string | null;
  push_messages: boolean | null;
  push_offers: boolean | null;
  push_payments: boolean | null;
  email_messages: boolean | null;
  email_offers: boolean | null;
  email_payments: boolean | null;
  quiet_start: number | null;
  quiet_end: number | null;
}

function fromRow(row: SettingRow): UserNotificationSettings {
  const on = (v: boolean | null) => v !== false;
  return {
    push: { messages: on(row.push_messages), offers: on(row.push_offers), payments: on(row.push_payments) },
    email: { messages: on(row.email_messages), offers: on(row.email_offers), payments: on(row.email_payments) },
    quiet: row.quiet_start === null || row.quiet_end === null ? null : { start: row.quiet_start, end: row.quiet_end },
    timezone: row.timezone || 'UTC',
  };
}

/**
 * The one owner of who wants what: the REST settings write here, and the push and e-mail deciders read here.
 * A user without a row has every switch on and no quiet hours.
 */
@Injectable()
export class NotificationSettingsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async forUsers(userIds: string[]): Promise<Map<string, UserNotificationSettings>> {
    if (userIds.length === 0) return new Map();
    const rows: SettingRow[] = await this.db.query(
      `SELECT u.id AS user_id, u.timezone, s.push_messages, s.push_offers, s.push_payments,
              s.email_messages, s.email_offers, s.email_payments, s.quiet_start, s.quiet_end
       FROM "user" u LEFT JOIN notification_setting s ON s.user_id = u.id
       WHERE u.id = ANY($1::uuid[])`,
      [userIds],
    );
    return new Map(rows.map((r) => [r.user_id, fromRow(r)]));
  }

  async forUser(userId: string): Promise<UserNotificationSettings> {
    return (await this.forUsers([userId])).get(userId) ?? defaultSettings();
  }

  async save(userId: string, s: NotificationSettingsResponse): Promise<void> {
    await this.db.query(
      `INSERT INTO notification_setting (user_id, push_messages, push_offers, push_payments,
                                         email_messages, email_offers, email_payments, quiet_start, quiet_end)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (user_id) DO UPDATE SET
         push_messages = EXCLUDED.push_messages, push_offers = EXCLUDED.push_offers, push_payments = EXCLUDED.push_payments,
         email_messages = EXCLUDED.email_messages, email_offers = EXCLUDED.email_offers, email_payments = EXCLUDED.email_payments,
         quiet_start = EXCLUDED.quiet_start, quiet_end = EXCLUDED.quiet_end, updated_at = now()`,
      [
        userId,
        s.push.messages,
        s.push.offers,
        s.push.payments,
        s.email.messages,
        s.email.offers,
        s.email.payments,
        s.quietHours ? minutesOf(s.quietHours.start) : null,
        s.quietHours ? minutesOf(s.quietHours.end) : null,
      ],
    );
  }

  /** Mutes (until `until`, or until turned back on when null) or unmutes; false when the user is not in the chat. */
  async setChatMute(userId: string, groupCode: string, muted: boolean, until: Date | null): Promise<boolean> {
    const [rows]: [unknown[], number] = await this.db.query(
      `UPDATE chat_participant p SET muted = $3, muted_until = $4
       FROM chat_group g WHERE g.id = p.group_id AND g.code = $2 AND p.user_id = $1 RETURNING 1`,
      [userId, groupCode, muted, muted ? until : null],
    );
    return rows.length > 0;
  }
}

/** SQL: the participant `p` has muted the chat now (for good, or a snooze not yet over). */
export const MUTED_NOW_SQL = `(p.muted AND (p.muted_until IS NULL OR p.muted_until > now()))`;
